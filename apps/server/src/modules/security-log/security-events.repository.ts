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

function where(filter: SecurityEventFilter): SQL | undefined {
  return and(
    eq(securityEvents.merchantId, filter.merchantId),
    filter.userId !== undefined ? eq(securityEvents.userId, filter.userId) : undefined,
    filter.type !== undefined ? eq(securityEvents.type, filter.type) : undefined,
  );
}
