import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, queryRows, type Tx } from '../../db/client.ts';
import { accessKeys, callbackAttempts, callbackEvents, merchants } from '../../db/schema/index.ts';

export type CallbackEventRow = typeof callbackEvents.$inferSelect;
export type CallbackAttemptRow = typeof callbackAttempts.$inferSelect;

/** Which undelivered events: the merchant's, created in [from, to), of a type, not of the hidden ref types. */
export type UndeliveredFilter = {
  merchantId: number;
  from: Date;
  to?: Date;
  type?: string;
  hiddenRefTypes: readonly string[];
};

/** An undelivered event as the console lists it, with its last attempt. */
export type UndeliveredRow = {
  id: string;
  type: string;
  ref_type: string;
  trade_no: string | null;
  url: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  last_status_code: number | null;
  last_error: string | null;
  last_response_excerpt: string | null;
  last_attempt_at: Date | string | null;
};

/**
 * Not delivered: given up, or failed at least once and waiting for a retry (a first attempt still queued is
 * not listed). Served by callback_events_undelivered_idx.
 */
const undeliveredWhere = (f: UndeliveredFilter) =>
  sql`e.merchant_id = ${f.merchantId} and e.status <> 'delivered' and (e.status = 'failed' or e.attempts > 0)
      and e.created_at >= ${f.from}
      ${f.to ? sql`and e.created_at < ${f.to}` : sql``}
      ${f.type ? sql`and e.type = ${f.type}` : sql``}
      ${
        f.hiddenRefTypes.length > 0
          ? sql`and e.ref_type not in (${sql.join(
              f.hiddenRefTypes.map((t) => sql`${t}`),
              sql`, `,
            )})`
          : sql``
      }`;

/**
 * Queued a moment ago (a resend, or a retry that fell due within the last minute): its job is waiting, so a
 * second resend (a double click) leaves it alone. One due for longer is queued again: its job may be lost.
 */
const queuedNow = (at: Date) =>
  sql`(e.status = 'pending' and e.next_attempt_at <= ${at}
       and e.next_attempt_at > ${new Date(at.getTime() - JUST_QUEUED_MS)})`;
const JUST_QUEUED_MS = 60_000;

export const callbacksRepository = {
  insertEvents: async (tx: Tx, rows: (typeof callbackEvents.$inferInsert)[]): Promise<void> => {
    if (rows.length > 0) await tx.insert(callbackEvents).values(rows);
  },

  insertEvent: async (tx: Tx, row: typeof callbackEvents.$inferInsert): Promise<CallbackEventRow> => {
    const [saved] = await tx.insert(callbackEvents).values(row).returning();
    return saved;
  },

  /** The event, locked: one delivery attempt at a time, whichever worker took the job. */
  lockPending: async (tx: Tx, id: string): Promise<CallbackEventRow | undefined> => {
    const [row] = await tx
      .select()
      .from(callbackEvents)
      .where(and(eq(callbackEvents.id, id), eq(callbackEvents.status, 'pending')))
      .for('update', { skipLocked: true });
    return row;
  },

  /** The event with its merchant's webhook secret (still encrypted), in one read: what a delivery needs. */
  /** Whether the merchant row is a live one (a row's mode never changes). */
  isLive: async (db: DbOrTx, merchantId: number): Promise<boolean> => {
    const [row] = await db
      .select({ mode: merchants.mode })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row?.mode !== 'test';
  },

  findForDelivery: async (db: DbOrTx, id: string) => {
    // Every delivery attempt reads it: built once, parsed and planned once per connection.
    const [row] = await preparedOnce(db, 'callback_for_delivery', (on) =>
      on
        .select({ event: callbackEvents, webhookSecretEncrypted: accessKeys.webhookSecretEncrypted })
        .from(callbackEvents)
        .leftJoin(accessKeys, eq(accessKeys.merchantId, callbackEvents.merchantId))
        .where(eq(callbackEvents.id, sql.placeholder('id')))
        .prepare('callback_for_delivery'),
    ).execute({ id });
    return row;
  },

  find: async (db: DbOrTx, merchantId: number, id: string) => {
    const [row] = await db
      .select()
      .from(callbackEvents)
      .where(and(eq(callbackEvents.id, id), eq(callbackEvents.merchantId, merchantId)));
    return row;
  },

  recordAttempt: async (
    tx: Tx,
    attempt: typeof callbackAttempts.$inferInsert,
    event: Pick<CallbackEventRow, 'id' | 'status' | 'nextAttemptAt' | 'deliveredAt'>,
  ) => {
    await tx.insert(callbackAttempts).values(attempt).onConflictDoNothing();
    await tx
      .update(callbackEvents)
      .set({
        status: event.status,
        attempts: sql`${callbackEvents.attempts} + 1`,
        nextAttemptAt: event.nextAttemptAt,
        deliveredAt: event.deliveredAt,
      })
      .where(eq(callbackEvents.id, event.id));
  },

  /**
   * A delivered attempt in one statement: the pending event becomes delivered and its attempt is logged
   * with the next number. Undefined when the event was no longer pending (another worker got there first).
   */
  recordDelivered: async (
    db: DbOrTx,
    attempt: Omit<typeof callbackAttempts.$inferInsert, 'attempt'>,
    deliveredAt: Date,
  ): Promise<number | undefined> => {
    const [row] = await queryRows<{ attempt: number }>(
      db,
      sql`with done as (
            update ${callbackEvents}
            set status = 'delivered', attempts = attempts + 1, next_attempt_at = null,
                delivered_at = ${deliveredAt}
            where id = ${attempt.eventId} and status = 'pending'
            returning attempts)
          insert into ${callbackAttempts}
            (event_id, attempt, status_code, latency_ms, error, response_excerpt, created_at)
          select ${attempt.eventId}, attempts, ${attempt.statusCode ?? null}, ${attempt.latencyMs ?? null},
                 ${attempt.error ?? null}, ${attempt.responseExcerpt ?? null}, ${attempt.createdAt ?? deliveredAt}
          from done
          on conflict do nothing
          returning attempt`,
    );
    return row?.attempt;
  },

  /** A resend: the same event (same webhook-id) goes out again, with the next attempt number. */
  requeue: async (tx: Tx, id: string, at: Date) => {
    const [row] = await tx
      .update(callbackEvents)
      .set({ status: 'pending', nextAttemptAt: at })
      .where(eq(callbackEvents.id, id))
      .returning();
    return row;
  },

  latestOfRef: async (db: DbOrTx, merchantId: number, refType: string, refId: number) => {
    const [row] = await db
      .select()
      .from(callbackEvents)
      .where(
        and(
          eq(callbackEvents.merchantId, merchantId),
          eq(callbackEvents.refType, refType),
          eq(callbackEvents.refId, refId),
        ),
      )
      .orderBy(desc(callbackEvents.createdAt), desc(callbackEvents.id))
      .limit(1);
    return row;
  },

  eventsOfRef: (db: DbOrTx, merchantId: number, refType: string, refId: number) =>
    db
      .select()
      .from(callbackEvents)
      .where(
        and(
          eq(callbackEvents.merchantId, merchantId),
          eq(callbackEvents.refType, refType),
          eq(callbackEvents.refId, refId),
        ),
      )
      .orderBy(asc(callbackEvents.createdAt)),

  attemptsOf: (db: DbOrTx, eventIds: string[]) =>
    eventIds.length === 0
      ? Promise.resolve([] as CallbackAttemptRow[])
      : db
          .select()
          .from(callbackAttempts)
          .where(inArray(callbackAttempts.eventId, eventIds))
          .orderBy(asc(callbackAttempts.eventId), asc(callbackAttempts.attempt)),

  /** A page of undelivered events, newest first, after the cursor when given (keyset) else skipping offset. */
  undeliveredPage: (
    db: DbOrTx,
    filter: UndeliveredFilter,
    limit: number,
    position: { cursor?: { createdAt: Date; id: string }; offset: number },
  ) =>
    queryRows<UndeliveredRow>(
      db,
      sql`select e.id, e.type, e.ref_type, e.payload::jsonb -> 'data' ->> 'trade_no' as trade_no, e.url,
                 e.status, e.attempts, e.next_attempt_at, e.created_at,
                 a.status_code as last_status_code, a.error as last_error,
                 a.response_excerpt as last_response_excerpt, a.created_at as last_attempt_at
          from ${callbackEvents} e
          left join lateral (
            select status_code, error, response_excerpt, created_at from ${callbackAttempts}
            where event_id = e.id order by attempt desc limit 1) a on true
          where ${undeliveredWhere(filter)}
            ${
              position.cursor
                ? sql`and (e.created_at, e.id) < (${position.cursor.createdAt}, ${position.cursor.id})`
                : sql``
            }
          order by e.created_at desc nulls last, e.id desc nulls last
          limit ${limit} ${position.cursor ? sql`` : sql`offset ${position.offset}`}`,
    ),

  /** How many undelivered events match, counted up to `cap` + 1 (more reads as "cap+"). */
  countUndelivered: async (db: DbOrTx, filter: UndeliveredFilter, cap: number): Promise<number> => {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from (
            select 1 from ${callbackEvents} e where ${undeliveredWhere(filter)} limit ${cap + 1}) m`,
    );
    return Number(row?.count ?? 0);
  },

  /**
   * Queues up to `limit` matching undelivered events for a new attempt now, in one statement: each is locked
   * (a concurrent resend skips it) and one already queued is left alone, so a double click sends once.
   * Returns the ids queued.
   */
  requeueUndelivered: async (tx: Tx, filter: UndeliveredFilter, at: Date, limit: number) =>
    (
      await queryRows<{ id: string }>(
        tx,
        sql`update ${callbackEvents} e set status = 'pending', next_attempt_at = ${at}
            where e.id in (
              select e.id from ${callbackEvents} e
              where ${undeliveredWhere(filter)} and not ${queuedNow(at)}
              order by e.created_at desc nulls last, e.id desc nulls last
              limit ${limit}
              for update skip locked)
              and not ${queuedNow(at)}
            returning e.id`,
      )
    ).map((row) => row.id),

  /** A resend of one event: queued for an attempt now, unless it already is (then undefined). */
  requeueUnlessQueued: async (tx: Tx, merchantId: number, id: string, at: Date) => {
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`update ${callbackEvents} e set status = 'pending', next_attempt_at = ${at}
          where e.id = ${id} and e.merchant_id = ${merchantId} and not ${queuedNow(at)}
          returning e.id`,
    );
    return row?.id;
  },

  /** Whether a matching undelivered event is still not queued (after a bulk resend took its limit). */
  countPendingResend: async (db: DbOrTx, filter: UndeliveredFilter, at: Date): Promise<number> => {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from (
            select 1 from ${callbackEvents} e where ${undeliveredWhere(filter)} and not ${queuedNow(at)} limit 1) m`,
    );
    return Number(row?.count ?? 0);
  },
};
