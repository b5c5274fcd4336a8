import { and, asc, eq, sql } from 'drizzle-orm';
import type { BlockList, LimitKind } from '@paydesk/shared/limits/limits.schemas.ts';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { limitUsage, merchantBlocks, merchantLimits, merchants } from '../../db/schema/index.ts';

// SQL of the limits and block lists (DESIGN 14), always scoped by the merchant row (its mode's).

export type LimitsRow = typeof merchantLimits.$inferSelect;
export type BlockRow = typeof merchantBlocks.$inferSelect;
/** The limit columns an operator sets or clears. */
export type LimitValues = Pick<
  LimitsRow,
  'perOrderMinMinor' | 'perOrderMaxMinor' | 'dailyAmountMinor' | 'dailyCount' | 'payeeDailyCount'
>;

export const limitsRepository = {
  /** The merchant's limits of a kind with its time zone and currency (the merchant row always answers). */
  async rulesOf(db: DbOrTx, merchantId: number, kind: LimitKind) {
    const [row] = await db
      .select({ timezone: merchants.timezone, currency: merchants.currency, limits: merchantLimits })
      .from(merchants)
      .leftJoin(
        merchantLimits,
        and(eq(merchantLimits.merchantId, merchants.id), eq(merchantLimits.kind, kind)),
      )
      .where(eq(merchants.id, merchantId));
    return row;
  },

  async limitsOfMerchant(db: DbOrTx, merchantId: number): Promise<LimitsRow[]> {
    return db
      .select()
      .from(merchantLimits)
      .where(eq(merchantLimits.merchantId, merchantId))
      .orderBy(asc(merchantLimits.kind));
  },

  /** Locks the merchant's row of a kind for an operator's change (none yet: undefined). */
  async lockLimits(db: DbOrTx, merchantId: number, kind: LimitKind): Promise<LimitsRow | undefined> {
    const [row] = await db
      .select()
      .from(merchantLimits)
      .where(and(eq(merchantLimits.merchantId, merchantId), eq(merchantLimits.kind, kind)))
      .for('update');
    return row;
  },

  async saveLimits(
    db: DbOrTx,
    merchantId: number,
    kind: LimitKind,
    values: LimitValues,
    by: string,
    at: Date,
  ): Promise<LimitsRow> {
    const [row] = await db
      .insert(merchantLimits)
      .values({ merchantId, kind, ...values, updatedBy: by, updatedAt: at })
      .onConflictDoUpdate({
        target: [merchantLimits.merchantId, merchantLimits.kind],
        set: { ...values, updatedBy: by, updatedAt: at },
      })
      .returning();
    return row;
  },

  async deleteLimits(db: DbOrTx, merchantId: number, kind: LimitKind) {
    await db
      .delete(merchantLimits)
      .where(and(eq(merchantLimits.merchantId, merchantId), eq(merchantLimits.kind, kind)));
  },

  /** Whether `value` is on the merchant's list (the value normalised as stored). */
  async isBlocked(db: DbOrTx, merchantId: number, list: BlockList, value: string): Promise<boolean> {
    const [row] = await db
      .select({ id: merchantBlocks.id })
      .from(merchantBlocks)
      .where(
        and(
          eq(merchantBlocks.merchantId, merchantId),
          eq(merchantBlocks.list, list),
          eq(merchantBlocks.value, value),
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  async blocksOf(db: DbOrTx, merchantId: number, list?: BlockList): Promise<BlockRow[]> {
    return db
      .select()
      .from(merchantBlocks)
      .where(
        and(
          eq(merchantBlocks.merchantId, merchantId),
          list === undefined ? undefined : eq(merchantBlocks.list, list),
        ),
      )
      .orderBy(asc(merchantBlocks.list), asc(merchantBlocks.id));
  },

  /** Adds an entry; undefined when it is on the list already. */
  async addBlock(
    db: DbOrTx,
    entry: Pick<BlockRow, 'merchantId' | 'list' | 'value' | 'createdBy' | 'reason' | 'createdAt'>,
  ): Promise<BlockRow | undefined> {
    const [row] = await db.insert(merchantBlocks).values(entry).onConflictDoNothing().returning();
    return row;
  },

  async removeBlock(db: DbOrTx, merchantId: number, list: BlockList, value: string) {
    const [row] = await db
      .delete(merchantBlocks)
      .where(
        and(
          eq(merchantBlocks.merchantId, merchantId),
          eq(merchantBlocks.list, list),
          eq(merchantBlocks.value, value),
        ),
      )
      .returning();
    return row;
  },

  /**
   * Adds one order to a day's usage, only while the caps (null: none) still hold after it: one upsert
   * whose conflict update re-reads the row under its lock, so orders racing for the last of a cap never
   * pass it together. Answers the usage after, or undefined when a cap refused it (nothing changed).
   */
  async addUsage(
    db: DbOrTx,
    key: { merchantId: number; kind: LimitKind; day: string; subject: string },
    amountMinor: bigint,
    caps: { amountMinor: bigint | null; count: number | null },
  ): Promise<{ amountMinor: bigint; count: number } | undefined> {
    const amountCap = caps.amountMinor === null ? null : String(caps.amountMinor);
    const [row] = await queryRows<{ amount_minor: string | number | bigint; count: number }>(
      db,
      sql`insert into limit_usage (merchant_id, kind, day, subject, amount_minor, count)
          select ${key.merchantId}::bigint, ${key.kind}::text, ${key.day}::date, ${key.subject}::text,
                 ${String(amountMinor)}::bigint, 1
           where ${String(amountMinor)}::bigint <= coalesce(${amountCap}::bigint, ${String(amountMinor)}::bigint)
             and 1 <= coalesce(${caps.count}::int, 1)
          on conflict (merchant_id, kind, day, subject) do update
             set amount_minor = limit_usage.amount_minor + excluded.amount_minor,
                 count = limit_usage.count + 1
           where limit_usage.amount_minor + excluded.amount_minor
                   <= coalesce(${amountCap}::bigint, limit_usage.amount_minor + excluded.amount_minor)
             and limit_usage.count + 1 <= coalesce(${caps.count}::int, limit_usage.count + 1)
          returning amount_minor, count`,
    );
    return row ? { amountMinor: BigInt(row.amount_minor), count: Number(row.count) } : undefined;
  },

  /**
   * Today's usage as the day's orders of the kind give it (all of them, as the counter counts them: made,
   * whatever became of them), written over the counter rows: for a kind that gets its first limit, whose
   * orders were not counted until now. Payouts count per payee account too. `start`/`end`: the local day.
   * `payeesOnly`: the per-payee rows alone (a payees-per-day limit added to a kind counted already: the
   * kind's own row has counted every payout of the day since its first limit).
   */
  async seedUsage(
    db: DbOrTx,
    key: { merchantId: number; kind: LimitKind; day: string },
    range: { start: Date; end: Date },
    { payeesOnly = false }: { payeesOnly?: boolean } = {},
  ) {
    const { merchantId, kind, day } = key;
    const from = range.start.toISOString();
    const to = range.end.toISOString();
    // The orders' own tables, read only: the kind's orders of the day.
    const orders =
      kind === 'payout'
        ? sql`select amount_minor, 'payee:' || upper(account_no) as payee from payouts
               where merchant_id = ${merchantId} and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`
        : kind === 'collection'
          ? sql`select amount_minor, null::text as payee from collections
                 where merchant_id = ${merchantId} and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`
          : sql`select amount_usdt_minor as amount_minor, null::text as payee from withdrawals
                 where merchant_id = ${merchantId} and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`;
    await queryRows(
      db,
      sql`with o as (${orders}),
           sums as (
             select '' as subject, coalesce(sum(amount_minor), 0)::bigint as amount_minor, count(*)::int as count from o
             having not ${payeesOnly}::boolean
             union all
             select payee, sum(amount_minor)::bigint, count(*)::int from o where payee is not null group by payee
           )
          insert into limit_usage (merchant_id, kind, day, subject, amount_minor, count)
          select ${merchantId}::bigint, ${kind}::text, ${day}::date, subject, amount_minor, count from sums
          on conflict (merchant_id, kind, day, subject) do update
             set amount_minor = excluded.amount_minor, count = excluded.count
          returning 1`,
    );
  },

  /** Housekeeping: the counters of days long gone. */
  async deleteUsageBefore(db: DbOrTx, day: string) {
    await db.delete(limitUsage).where(sql`${limitUsage.day} < ${day}::date`);
  },

  async usageOf(
    db: DbOrTx,
    key: { merchantId: number; kind: LimitKind; day: string; subject: string },
  ): Promise<{ amountMinor: bigint; count: number }> {
    const [row] = await db
      .select({ amountMinor: limitUsage.amountMinor, count: limitUsage.count })
      .from(limitUsage)
      .where(
        and(
          eq(limitUsage.merchantId, key.merchantId),
          eq(limitUsage.kind, key.kind),
          eq(limitUsage.day, key.day),
          eq(limitUsage.subject, key.subject),
        ),
      );
    return row ?? { amountMinor: 0n, count: 0 };
  },
};
