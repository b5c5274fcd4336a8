import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, queryRows, type Tx } from '../../db/client.ts';
import { channels, operatorActions } from '../../db/schema/index.ts';

export type ChannelRow = typeof channels.$inferSelect;
export type NewChannel = typeof channels.$inferInsert;

export const channelsRepository = {
  /** Opens a channel, or opens again a closed one of the same code with the new terms. */
  upsertOpen: async (tx: Tx, row: NewChannel): Promise<ChannelRow> => {
    const at = new Date();
    const [saved] = await tx
      .insert(channels)
      .values({ ...row, updatedAt: at })
      .onConflictDoUpdate({
        target: [channels.merchantId, channels.kind, channels.code],
        set: { ...row, status: 'open', closedBy: null, updatedAt: at },
      })
      .returning();
    return saved;
  },

  /** The lowest priority among the merchant's channels of a kind (a new channel goes below it). */
  lowestPriority: async (db: DbOrTx, merchantId: number, kind: string): Promise<number | undefined> => {
    const [row] = await db
      .select({ priority: sql<number>`min(${channels.priority})::int` })
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind)));
    return row?.priority ?? undefined;
  },

  /** Sets a channel's priority and weight (routing, DESIGN 14); undefined when it has none such. */
  setRoute: async (
    tx: Tx,
    merchantId: number,
    kind: string,
    code: string,
    route: { priority?: number; weight?: number },
  ): Promise<ChannelRow | undefined> => {
    const [row] = await tx
      .update(channels)
      .set({ ...route, updatedAt: new Date() })
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind), eq(channels.code, code)))
      .returning();
    return row;
  },

  /**
   * The merchant's channels of a kind, open or closed, highest priority first (a routing table is made
   * of its open ones; its version is their latest updated_at).
   */
  ofKind: (db: DbOrTx, merchantId: number, kind: string): Promise<ChannelRow[]> =>
    db
      .select()
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind)))
      .orderBy(desc(channels.priority), asc(channels.id)),

  /**
   * A channel's health as its latest ended attempts (succeeded or failed) since its health was reset
   * say, when it may change: after a failure by the channel's fault, or while it is cooling down or on
   * probation. Undefined otherwise (a success or a decline on a healthy channel costs one index lookup).
   * `failures`: the ended attempts that failed by the channel's fault (channel_fault), not its declines.
   */
  healthWindow: async (
    tx: Tx,
    channelId: number,
    failed: boolean,
    window: number,
  ): Promise<{ channel: ChannelRow; ended: number; failures: number } | undefined> => {
    const [found] = await tx
      .select()
      .from(channels)
      .where(
        and(eq(channels.id, channelId), failed ? undefined : sql`${channels.cooldownUntil} is not null`),
      );
    if (!found) return undefined;
    const [counts] = await queryRows<{ ended: number; failures: number }>(
      tx,
      sql`select count(*)::int as ended,
                 (count(*) filter (where a.outcome = 'failed' and a.channel_fault))::int as failures
            from (select a.outcome, a.channel_fault from channel_attempts a
                   where a.channel_id = ${channelId} and a.outcome in ('succeeded', 'failed')
                     and a.created_at > ${found.healthSince ?? new Date(0)}
                   order by a.id desc limit ${window}) a`,
    );
    return { channel: found, ended: counts.ended, failures: counts.failures };
  },

  /**
   * A channel's health changed (cooled down or recovered): its state, and a row in the operator's audit
   * log (operator_actions, by the routing itself) in the same transaction.
   */
  setHealth: async (
    tx: Tx,
    channel: ChannelRow,
    change: { action: string; cooldownUntil: Date | null; healthSince: Date | null; at: Date },
    detail: Record<string, unknown>,
  ): Promise<void> => {
    const changed = await tx
      .update(channels)
      .set({
        cooldownUntil: change.cooldownUntil,
        healthSince: change.healthSince,
        // Later than every channel of its kind, so every process's routing table reads as stale (the
        // routed one-statement write, rememberedChannelWhere) even when the clock is a test's.
        updatedAt: sql`greatest(${change.at}::timestamptz, (select max(o.updated_at) from channels o
                         where o.merchant_id = ${channel.merchantId} and o.kind = ${channel.kind})
                         + interval '1 millisecond')`,
      })
      .where(
        and(
          eq(channels.id, channel.id),
          // Only from the health it was read in: of two orders ending together, one records the change.
          channel.cooldownUntil === null
            ? isNull(channels.cooldownUntil)
            : eq(channels.cooldownUntil, channel.cooldownUntil),
        ),
      )
      .returning({ id: channels.id });
    if (changed.length === 0) return;
    await channelsRepository.audit(tx, {
      action: change.action,
      merchantId: channel.merchantId,
      reason:
        change.action === 'channel.cooled_down'
          ? `The ${channel.kind} channel ${channel.code} failed too often.`
          : `The ${channel.kind} channel ${channel.code} recovered.`,
      detail,
      at: change.at,
    });
  },

  /** A row of the operator's audit log written by routing itself (no operator asked for it). */
  audit: async (
    tx: Tx,
    row: { action: string; merchantId: number; reason: string; detail: Record<string, unknown>; at: Date },
  ): Promise<void> => {
    await tx.insert(operatorActions).values({
      operatorName: 'routing',
      action: row.action,
      merchantId: row.merchantId,
      reason: row.reason,
      detail: row.detail,
      createdAt: row.at,
    });
  },

  close: async (tx: Tx, merchantId: number, kind: string, code: string, operator: string) => {
    const [row] = await tx
      .update(channels)
      .set({ status: 'closed', closedBy: operator, updatedAt: new Date() })
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind), eq(channels.code, code)))
      .returning();
    return row;
  },

  listOfMerchant: (db: DbOrTx, merchantId: number): Promise<ChannelRow[]> =>
    db.select().from(channels).where(eq(channels.merchantId, merchantId)).orderBy(asc(channels.id)),

  /** The providers of the merchant row's open channels (one of each). */
  openProviders: async (db: DbOrTx, merchantId: number): Promise<string[]> => {
    const rows = await db
      .selectDistinct({ provider: channels.provider })
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.status, 'open')));
    return rows.map((row) => row.provider);
  },

  /** The merchant's channel of this kind and code, open or closed. */
  findOfMerchant: async (db: DbOrTx, merchantId: number, kind: string, code: string) => {
    const [row] = await db
      .select()
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind), eq(channels.code, code)));
    return row;
  },

  listAll: (db: DbOrTx): Promise<ChannelRow[]> => db.select().from(channels).orderBy(asc(channels.id)),

  findById: async (db: DbOrTx, id: number): Promise<ChannelRow | undefined> => {
    const [row] = await db.select().from(channels).where(eq(channels.id, id));
    return row;
  },

  /** The merchant's open channel of this kind: the one named, else the first opened. */
  findOpen: async (
    db: DbOrTx,
    merchantId: number,
    kind: 'collection' | 'payout',
    code?: string,
  ): Promise<ChannelRow | undefined> => {
    // Every gateway order reads it: a prepared statement per shape (with or without a code).
    const name = code ? 'open_channel_by_code' : 'open_channel_first';
    const [row] = await preparedOnce(db, name, (on) =>
      on
        .select()
        .from(channels)
        .where(
          and(
            eq(channels.merchantId, sql.placeholder('merchantId')),
            eq(channels.kind, sql.placeholder('kind')),
            eq(channels.status, 'open'),
            code ? eq(channels.code, sql.placeholder('code')) : undefined,
          ),
        )
        .orderBy(asc(channels.id))
        .limit(1)
        .prepare(name),
    ).execute({ merchantId, kind, code: code ?? null });
    return row;
  },
};
