import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { SecurityEventType } from '@paydesk/shared/security/security.schemas.ts';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { securityEvents, users } from '../../db/schema/index.ts';
import type { ClientInfo } from '../../plugins/auth-context.ts';

export type { SecurityEventType } from '@paydesk/shared/security/security.schemas.ts';

/** Counting stops here: a longer log shows "10000+" rather than being counted for seconds. */
export const EVENTS_COUNT_CAP = 10000;

export type SecurityEvent = {
  type: SecurityEventType;
  merchantId: number | null;
  userId: number | null;
  detail?: Record<string, unknown>;
};

export type SecurityEventFilter = {
  merchantId: number;
  /** Only this user's events; undefined for the whole merchant (ROOT). */
  userId?: number;
  type?: SecurityEventType;
};

export const securityEventsRepository = {
  /** Run it in the transaction of the change it records, so the change and its event commit together. */
  record: async (db: DbOrTx, client: ClientInfo | null, event: SecurityEvent): Promise<void> => {
    await db.insert(securityEvents).values({
      type: event.type,
      merchantId: event.merchantId,
      userId: event.userId,
      detail: event.detail ?? null,
      ip: client?.ip ?? null,
      userAgent: client?.userAgent?.slice(0, 500) ?? null,
    });
  },

  /** Newest first, on the (merchant|user, created_at desc, id desc) indexes. */
  list: async (db: DbOrTx, filter: SecurityEventFilter, page: { limit: number; offset: number }) =>
    db
      .select({
        id: securityEvents.id,
        type: securityEvents.type,
        ip: securityEvents.ip,
        userAgent: securityEvents.userAgent,
        detail: securityEvents.detail,
        createdAt: securityEvents.createdAt,
        userId: users.id,
        userName: users.name,
        userEmail: users.email,
      })
      .from(securityEvents)
      .leftJoin(users, eq(users.id, securityEvents.userId))
      .where(where(filter))
      .orderBy(desc(securityEvents.createdAt), desc(securityEvents.id))
      .limit(page.limit)
      .offset(page.offset),

  count: async (db: DbOrTx, filter: SecurityEventFilter): Promise<{ total: number; capped: boolean }> => {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*)::int as n from (
        select 1 from ${securityEvents} where ${where(filter)} limit ${EVENTS_COUNT_CAP + 1}
      ) capped`,
    );
    const n = Number(row?.n ?? 0);
    return { total: Math.min(n, EVENTS_COUNT_CAP), capped: n > EVENTS_COUNT_CAP };
  },
};

/** Each user's last sign-in (their newest `login` event), on the (user, created_at desc) index. */
export async function lastLoginsOf(db: DbOrTx, userIds: number[]): Promise<Map<number, Date>> {
  if (userIds.length === 0) return new Map();
  const ids = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await queryRows<{ user_id: number | string; at: Date | string | null }>(
    db,
    sql`select u.id as user_id, (
        select e.created_at from ${securityEvents} e
        where e.user_id = u.id and e.type = 'login'
        order by e.created_at desc, e.id desc limit 1
      ) as at
      from unnest(array[${ids}]::bigint[]) as u(id)`,
  );
  const found = new Map<number, Date>();
  for (const row of rows) if (row.at) found.set(Number(row.user_id), new Date(row.at));
  return found;
}

function where(filter: SecurityEventFilter): SQL | undefined {
  return and(
    eq(securityEvents.merchantId, filter.merchantId),
    filter.userId !== undefined ? eq(securityEvents.userId, filter.userId) : undefined,
    filter.type !== undefined ? eq(securityEvents.type, filter.type) : undefined,
  );
}
