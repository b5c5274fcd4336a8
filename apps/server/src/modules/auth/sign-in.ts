import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import type { ClientInfo, UserRow } from '../../plugins/auth-context.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';

/**
 * How many of a ROOT user's latest sign-ins an address is looked for in: one read of the user's index of
 * the security log (security_events_user_idx), however long their history.
 */
export const SIGN_INS_REMEMBERED = 500;

type Deps = {
  db: Db;
  notifications: Pick<NotificationsService, 'notifyRoots' | 'merchantLabel'>;
  now: () => Date;
};

/**
 * A user is signed in (after the password, or the two-factor challenge): the `login` event, and for a ROOT
 * user signing in from an address none of their latest sign-ins came from, the `root_sign_in_new_ip`
 * notification (DESIGN 16), in one transaction. A first sign-in ever is not "new": there is nothing to
 * compare with. An unknown address tells no one.
 */
export async function recordSignIn(
  { db, notifications, now }: Deps,
  client: ClientInfo,
  user: UserRow,
  detail?: Record<string, unknown>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const isRoot = user.roles.includes('ROOT') && client.ip !== null;
    const [seen] = isRoot
      ? await queryRows<{ sign_ins: number; here: boolean }>(
          tx,
          sql`select count(*)::int as sign_ins, coalesce(bool_or(ip = ${client.ip}), false) as here
                from (select ip from security_events where user_id = ${user.id} and type = 'login'
                      order by created_at desc, id desc limit ${SIGN_INS_REMEMBERED}) latest`,
        )
      : [];
    await recordSecurityEvent(tx, client, {
      type: 'login',
      merchantId: user.merchantId,
      userId: user.id,
      detail,
    });
    if (!seen || seen.sign_ins === 0 || seen.here) return;
    await notifications.notifyRoots(tx, {
      merchantId: user.merchantId,
      type: 'root_sign_in_new_ip',
      params: {
        merchant: await notifications.merchantLabel(tx, user.merchantId),
        user: `${user.name} <${user.email}>`,
        ip: client.ip!,
        at: now().toISOString(),
      },
    });
  });
}
