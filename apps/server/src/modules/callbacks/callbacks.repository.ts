import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, queryRows, type Tx } from '../../db/client.ts';
import { accessKeys, callbackAttempts, callbackEvents, merchants } from '../../db/schema/index.ts';

export type CallbackEventRow = typeof callbackEvents.$inferSelect;
export type CallbackAttemptRow = typeof callbackAttempts.$inferSelect;

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
};
