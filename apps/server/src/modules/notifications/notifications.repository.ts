import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Locale, NotificationType } from '@paydesk/shared/notifications/notifications.schemas.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, notifications, users } from '../../db/schema/index.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type Recipient = { id: number; email: string; locale: Locale; merchantId: number };

export const notificationsRepository = {
  /** The ROOT users of the merchant (of its live row: users are the company's, not a mode's). */
  rootsOf: async (tx: Tx, merchantId: number): Promise<Recipient[]> => {
    const rows = await tx
      .select({ id: users.id, email: users.email, locale: users.locale, merchantId: users.merchantId })
      .from(users)
      .where(
        sql`${users.merchantId} = (select coalesce(${merchants.liveMerchantId}, ${merchants.id}) from ${merchants} where ${merchants.id} = ${merchantId})
            and 'ROOT' = any(${users.roles}) and ${users.disabledAt} is null`,
      )
      .orderBy(users.id);
    return rows as Recipient[];
  },
  /** "Name (M100001)" of the merchant's live row: what the notifications' `merchant` shows. */
  merchantLabelOf: async (tx: Tx, merchantId: number): Promise<string> => {
    const [row] = await tx
      .select({ name: merchants.name, no: merchants.no })
      .from(merchants)
      .where(
        sql`${merchants.id} = (select coalesce(${merchants.liveMerchantId}, ${merchants.id}) from ${merchants} where ${merchants.id} = ${merchantId})`,
      );
    return row ? `${row.name} (${row.no})` : '';
  },
  insertMany: async (
    tx: Tx,
    rows: Array<{
      merchantId: number;
      userId: number;
      type: NotificationType;
      params: Record<string, string>;
      createdAt: Date;
    }>,
  ): Promise<void> => {
    if (rows.length > 0) await tx.insert(notifications).values(rows);
  },
  /** The user's page, newest first, from before the id `before`. */
  pageOf: async (
    db: DbOrTx,
    userId: number,
    before: number | undefined,
    limit: number,
  ): Promise<NotificationRow[]> =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), before ? lt(notifications.id, before) : undefined))
      .orderBy(desc(notifications.id))
      .limit(limit),
  unreadCountOf: async (db: DbOrTx, userId: number): Promise<number> => {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return Number(row?.count ?? 0);
  },
  /** Marks the user's own unread rows read (ids of others' rows change nothing). */
  markRead: async (db: DbOrTx, userId: number, ids: number[] | 'all', at: Date): Promise<void> => {
    await db
      .update(notifications)
      .set({ readAt: at })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids === 'all' ? undefined : inArray(notifications.id, ids),
        ),
      );
  },
};
