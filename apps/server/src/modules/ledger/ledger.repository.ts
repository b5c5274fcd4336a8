import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx, type Tx } from '../../db/client.ts';
import { balances, fundFlows, holds } from '../../db/schema/index.ts';

export type FundFlowRow = typeof fundFlows.$inferSelect;
export type HoldRow = typeof holds.$inferSelect;
export type BalanceRow = typeof balances.$inferSelect;

// Raw rows differ by driver (strings on node-postgres, numbers or bigints on PGlite): convert here.
const toNumber = (value: unknown): number => Number(value);

/** Entries and holds carry the moment they were written, to the millisecond (the console's precision). */
const NOW_MS = sql`date_trunc('milliseconds', clock_timestamp())`;
const timeOrNow = (at: Date | undefined) => (at ? sql`${at.toISOString()}::timestamptz` : NOW_MS);

export type NewEntry = {
  merchantId: number;
  type: string;
  amountMinor: bigint;
  availableAfterMinor: bigint;
  refType: string;
  refId: string;
  refNo: string | null;
  holdId: number | null;
  note: string | null;
  idempotencyKey: string;
};

// The hourly rollup of money in, money out and entry count, written in the same statement as the entry.
const rollupFrom = (cte: string) => sql`
  insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
  select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
         greatest(amount_minor, 0), greatest(-amount_minor, 0), 1
  from ${sql.raw(cte)}
  on conflict (merchant_id, type, hour) do update set
    in_minor = fund_flow_hourly.in_minor + excluded.in_minor,
    out_minor = fund_flow_hourly.out_minor + excluded.out_minor,
    entries = fund_flow_hourly.entries + excluded.entries`;

export const ledgerRepository = {
  /**
   * available += delta, only if the result stays >= 0 and no entry with this key exists yet; answers the
   * new available, or undefined when nothing was changed (no balance row, not enough funds, or a repeat).
   */
  addToAvailable: async (tx: Tx, merchantId: number, deltaMinor: bigint, idempotencyKey: string) => {
    const [row] = await tx
      .update(balances)
      .set({ availableMinor: sql`${balances.availableMinor} + ${deltaMinor}`, updatedAt: sql`now()` })
      .where(
        and(
          eq(balances.merchantId, merchantId),
          sql`${balances.availableMinor} + ${deltaMinor} >= 0`,
          sql`not exists (select 1 from ${fundFlows} where ${fundFlows.idempotencyKey} = ${idempotencyKey})`,
        ),
      )
      .returning({ availableMinor: balances.availableMinor });
    return row?.availableMinor;
  },

  /** Undoes addToAvailable inside the same transaction (it still holds the row lock). */
  undoAddToAvailable: async (tx: Tx, merchantId: number, deltaMinor: bigint) => {
    await tx
      .update(balances)
      .set({ availableMinor: sql`${balances.availableMinor} - ${deltaMinor}` })
      .where(eq(balances.merchantId, merchantId));
  },

  /** A zero balance row, so the conditional update has a row to lock; a no-op when it exists. */
  ensureBalanceRow: async (tx: Tx, merchantId: number) => {
    await tx.insert(balances).values({ merchantId }).onConflictDoNothing({ target: balances.merchantId });
  },

  /** available -= x, locked += x, only if available stays >= 0 and no hold with this key exists yet. */
  moveToLocked: async (tx: Tx, merchantId: number, amountMinor: bigint, idempotencyKey: string) => {
    const [row] = await tx
      .update(balances)
      .set({
        availableMinor: sql`${balances.availableMinor} - ${amountMinor}`,
        lockedMinor: sql`${balances.lockedMinor} + ${amountMinor}`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(balances.merchantId, merchantId),
          sql`${balances.availableMinor} >= ${amountMinor}`,
          sql`not exists (select 1 from ${holds} where ${holds.idempotencyKey} = ${idempotencyKey})`,
        ),
      )
      .returning({ availableMinor: balances.availableMinor });
    return row?.availableMinor;
  },

  undoMoveToLocked: async (tx: Tx, merchantId: number, amountMinor: bigint) => {
    await tx
      .update(balances)
      .set({
        availableMinor: sql`${balances.availableMinor} + ${amountMinor}`,
        lockedMinor: sql`${balances.lockedMinor} - ${amountMinor}`,
      })
      .where(eq(balances.merchantId, merchantId));
  },

  /** locked -= x (and available += x when released), only if locked stays >= 0. */
  closeLocked: async (tx: Tx, merchantId: number, amountMinor: bigint, toAvailable: boolean) => {
    const [row] = await tx
      .update(balances)
      .set({
        lockedMinor: sql`${balances.lockedMinor} - ${amountMinor}`,
        ...(toAvailable ? { availableMinor: sql`${balances.availableMinor} + ${amountMinor}` } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(balances.merchantId, merchantId), sql`${balances.lockedMinor} >= ${amountMinor}`))
      .returning({ availableMinor: balances.availableMinor });
    return row?.availableMinor;
  },

  /** Inserts the entry and its hourly rollup; undefined when an entry with the key already exists. */
  insertEntry: async (tx: Tx, entry: NewEntry, at?: Date) => {
    const rows = await queryRows<{ id: unknown; created_ms: unknown }>(
      tx,
      sql`with entry as (
            insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id,
                                    ref_no, hold_id, note, idempotency_key, created_at)
            values (${entry.merchantId}, ${entry.type}, ${entry.amountMinor}, ${entry.availableAfterMinor},
                    ${entry.refType}, ${entry.refId}, ${entry.refNo}, ${entry.holdId}, ${entry.note},
                    ${entry.idempotencyKey}, ${timeOrNow(at)})
            on conflict (idempotency_key) do nothing
            returning *
          ), rollup as (${rollupFrom('entry')})
          select id, (extract(epoch from created_at) * 1000)::int8 as created_ms from entry`,
    );
    const [row] = rows;
    if (!row) return undefined;
    return { ...entry, id: toNumber(row.id), createdAt: new Date(toNumber(row.created_ms)) } as FundFlowRow;
  },

  /** Inserts the hold, its entry and the entry's rollup in one statement; undefined when the key exists. */
  insertHoldWithEntry: async (
    tx: Tx,
    hold: Omit<HoldRow, 'id' | 'status' | 'closeKey' | 'createdAt' | 'closedAt'>,
    availableAfterMinor: bigint,
    at?: Date,
  ): Promise<{ hold: HoldRow; entry: FundFlowRow } | undefined> => {
    const rows = await queryRows<{ hold_id: unknown; entry_id: unknown; created_ms: unknown }>(
      tx,
      sql`with hold as (
            insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note,
                               idempotency_key, created_at)
            values (${hold.merchantId}, ${hold.amountMinor}, ${hold.type}, 'open', ${hold.refType},
                    ${hold.refId}, ${hold.refNo}, ${hold.note}, ${hold.idempotencyKey}, ${timeOrNow(at)})
            on conflict (idempotency_key) do nothing
            returning id, created_at
          ), entry as (
            insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id,
                                    ref_no, hold_id, note, idempotency_key, created_at)
            select ${hold.merchantId}::bigint, ${hold.type}::text, ${-hold.amountMinor}::bigint,
                   ${availableAfterMinor}::bigint, ${hold.refType}::text, ${hold.refId}::text,
                   ${hold.refNo}::text, hold.id, ${hold.note}::text, ${hold.idempotencyKey}::text,
                   hold.created_at
            from hold
            returning *
          ), rollup as (${rollupFrom('entry')})
          select entry.hold_id, entry.id as entry_id,
                 (extract(epoch from entry.created_at) * 1000)::int8 as created_ms
          from entry`,
    );
    const [row] = rows;
    if (!row) return undefined;
    const createdAt = new Date(toNumber(row.created_ms));
    const holdId = toNumber(row.hold_id);
    return {
      hold: { ...hold, id: holdId, status: 'open', closeKey: null, createdAt, closedAt: null },
      entry: {
        id: toNumber(row.entry_id),
        merchantId: hold.merchantId,
        type: hold.type,
        amountMinor: -hold.amountMinor,
        availableAfterMinor,
        refType: hold.refType,
        refId: hold.refId,
        refNo: hold.refNo,
        holdId,
        note: hold.note,
        idempotencyKey: hold.idempotencyKey,
        createdAt,
      },
    };
  },

  /** open -> captured | released, only from open; undefined when the hold is not open (or not there). */
  closeHold: async (
    tx: Tx,
    merchantId: number,
    holdId: number,
    status: 'captured' | 'released',
    closeKey: string,
  ): Promise<HoldRow | undefined> => {
    const [row] = await tx
      .update(holds)
      .set({ status, closeKey, closedAt: NOW_MS })
      .where(and(eq(holds.id, holdId), eq(holds.merchantId, merchantId), eq(holds.status, 'open')))
      .returning();
    return row;
  },

  findEntryByKey: async (db: DbOrTx, idempotencyKey: string): Promise<FundFlowRow | undefined> => {
    const [row] = await db.select().from(fundFlows).where(eq(fundFlows.idempotencyKey, idempotencyKey));
    return row;
  },

  findHoldByKey: async (db: DbOrTx, idempotencyKey: string): Promise<HoldRow | undefined> => {
    const [row] = await db.select().from(holds).where(eq(holds.idempotencyKey, idempotencyKey));
    return row;
  },

  findHold: async (db: DbOrTx, merchantId: number, holdId: number): Promise<HoldRow | undefined> => {
    const [row] = await db
      .select()
      .from(holds)
      .where(and(eq(holds.id, holdId), eq(holds.merchantId, merchantId)));
    return row;
  },

  findBalance: async (db: DbOrTx, merchantId: number): Promise<BalanceRow | undefined> => {
    const [row] = await db.select().from(balances).where(eq(balances.merchantId, merchantId));
    return row;
  },

  /** The time of the merchant's latest entry (for back-dated history, which must stay in order). */
  latestEntryTime: async (db: DbOrTx, merchantId: number): Promise<Date | undefined> => {
    const [row] = await db
      .select({ createdAt: fundFlows.createdAt })
      .from(fundFlows)
      .where(eq(fundFlows.merchantId, merchantId))
      .orderBy(sql`${fundFlows.createdAt} desc nulls last`, sql`${fundFlows.id} desc nulls last`)
      .limit(1);
    return row?.createdAt;
  },
};
