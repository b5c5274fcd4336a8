import type {
  MarkNotificationsReadBody,
  Notification,
  NotificationListQuery,
  NotificationType,
} from '@paydesk/shared/notifications/notifications.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { MailService, MailTemplateParams } from '../mail/index.ts';
import { currentRequestOrigin } from '../../plugins/request-context.ts';
import { consoleLinkOf } from './console-links.ts';
import { type NotificationRow, notificationsRepository as repo } from './notifications.repository.ts';

type Deps = {
  db: Db;
  mail: Pick<MailService, 'queue'>;
  now: () => Date;
  /** PUBLIC_URL, no trailing slash; empty: the mails link to the address of the request that caused them. */
  publicUrl: string;
};

export type NotifyRootsInput<T extends NotificationType = NotificationType> = {
  /** The merchant (either mode's row: its live row's users are told). */
  merchantId: number;
  type: T;
  params: MailTemplateParams[T];
  /** A ROOT user not to tell (the one who made the change, say). */
  excludeUserId?: number;
};

const present = (row: NotificationRow): Notification => ({
  id: row.id,
  type: row.type as NotificationType,
  params: row.params,
  created_at: row.createdAt.toISOString(),
  read_at: row.readAt?.toISOString() ?? null,
});

export function createNotificationsService({ db, mail, now, publicUrl }: Deps) {
  /**
   * Tells the merchant's ROOT users of a change (DESIGN 16): a bell row and an email each, in their
   * language, in the transaction of the change (a rollback tells no one); the mail links to the console
   * page where they act on it (the bell's row keeps the change's parameters alone). Answers how many were
   * told.
   */
  async function notifyRoots<T extends NotificationType>(
    tx: Tx,
    input: NotifyRootsInput<T>,
  ): Promise<number> {
    const roots = (await repo.rootsOf(tx, input.merchantId)).filter((u) => u.id !== input.excludeUserId);
    const createdAt = now();
    const params = input.params as Record<string, string>;
    await repo.insertMany(
      tx,
      roots.map((user) => ({
        merchantId: user.merchantId,
        userId: user.id,
        type: input.type,
        params,
        createdAt,
      })),
    );
    const link = consoleLinkOf(input.type, input.params, publicUrl || currentRequestOrigin());
    for (const user of roots) {
      await mail.queue(tx, {
        to: user.email,
        locale: user.locale,
        template: input.type,
        params: link ? { ...input.params, link } : input.params,
      });
    }
    return roots.length;
  }

  /** The user's bell: a page newest first and their unread count. */
  async function list(userId: number, query: NotificationListQuery) {
    const [rows, unread] = await Promise.all([
      repo.pageOf(db, userId, query.before, query.limit + 1),
      repo.unreadCountOf(db, userId),
    ]);
    const page = rows.slice(0, query.limit);
    const hasMore = rows.length > query.limit;
    return {
      data: page.map(present),
      meta: { unread, next_before: hasMore ? page[page.length - 1]!.id : null },
    };
  }

  async function markRead(userId: number, body: MarkNotificationsReadBody) {
    await repo.markRead(db, userId, 'all' in body ? 'all' : body.ids, now());
    return { unread: await repo.unreadCountOf(db, userId) };
  }

  /** The `merchant` parameter of a notification: "Name (M100001)" of the merchant's live row. */
  const merchantLabel = (tx: Tx, merchantId: number) => repo.merchantLabelOf(tx, merchantId);

  return { notifyRoots, merchantLabel, list, markRead };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
