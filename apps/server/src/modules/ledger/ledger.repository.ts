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

/** What a conditional write did: nothing (not applied), or changed the balance and maybe wrote the rows. */
export type Applied<T> =
  { applied: false } | { applied: true; availableAfterMinor: bigint; written: T | undefined };

type WrittenRow = { available: unknown; entry_id: unknown; hold_id: unknown; created_ms: unknown };

function appliedFrom<T>(rows: WrittenRow[], build: (row: WrittenRow, createdAt: Date) => T): Applied<T> {
  const [row] = rows;
  if (!row) return { applied: false };
  const availableAfterMinor = BigInt(String(row.available));
  if (row.entry_id === null || row.entry_id === undefined)
    return { applied: true, availableAfterMinor, written: undefined };
  return { applied: true, availableAfterMinor, written: build(row, new Date(toNumber(row.created_ms))) };
}

export const ledgerRepository = {
  /**
   * One statement: available += delta, only if it stays >= 0 and no entry has this key yet, then the entry
   * (with the new available) and its rollup. Not applied: no balance row, not enough funds, or a repeat.
   * Applied without an entry: a concurrent caller committed the same key first (undo, then replay theirs).
   */
  postEntry: async (
    tx: Tx,
    entry: Omit<NewEntry, 'availableAfterMinor' | 'holdId'>,
    at?: Date,
  ): Promise<Applied<FundFlowRow>> => {
    const rows = await queryRows<WrittenRow>(
      tx,
      sql`with bal as (
            update balances set available_minor = available_minor + ${entry.amountMinor}, updated_at = now()
            where merchant_id = ${entry.merchantId} and available_minor + ${entry.amountMinor} >= 0
              and not exists (select 1 from fund_flows where idempotency_key = ${entry.idempotencyKey})
            returning available_minor
          ), entry as (
            insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id,
                                    ref_no, note, idempotency_key, created_at)
            select ${entry.merchantId}::bigint, ${entry.type}::text, ${entry.amountMinor}::bigint, bal.available_minor,
                   ${entry.refType}::text, ${entry.refId}::text, ${entry.refNo}::text, ${entry.note}::text,
                   ${entry.idempotencyKey}::text, ${timeOrNow(at)}
            from bal
            on conflict (idempotency_key) do nothing
            returning *
          ), rollup as (${rollupFrom('entry')})
          select bal.available_minor::text as available, entry.id as entry_id, null as hold_id,
                 (extract(epoch from entry.created_at) * 1000)::int8 as created_ms
          from bal left join entry on true`,
    );
    return appliedFrom(rows, (row, createdAt) => ({
      ...entry,
      id: toNumber(row.entry_id),
      availableAfterMinor: BigInt(String(row.available)),
      holdId: null,
      createdAt,
    }));
  },

  /** Undoes an applied postEntry inside the same transaction (it still holds the row lock). */
  undoPost: async (tx: Tx, merchantId: number, deltaMinor: bigint) => {
    await tx
      .update(balances)
      .set({ availableMinor: sql`${balances.availableMinor} - ${deltaMinor}` })
      .where(eq(balances.merchantId, merchantId));
  },

  /** A zero balance row, so the conditional update has a row to lock; a no-op when it exists. */
  ensureBalanceRow: async (tx: Tx, merchantId: number) => {
    await tx.insert(balances).values({ merchantId }).onConflictDoNothing({ target: balances.merchantId });
  },

  /**
   * One statement: available -= x and locked += x, only if available stays >= 0 and no hold has this key yet,
   * then the hold, its entry and the rollup. Same outcomes as postEntry.
   */
  holdWithEntry: async (
    tx: Tx,
    hold: Omit<HoldRow, 'id' | 'status' | 'closeKey' | 'createdAt' | 'closedAt'>,
    at?: Date,
  ): Promise<Applied<{ hold: HoldRow; entry: FundFlowRow }>> => {
    const rows = await queryRows<WrittenRow>(
      tx,
      sql`with bal as (
            update balances set available_minor = available_minor - ${hold.amountMinor},
                                locked_minor = locked_minor + ${hold.amountMinor}, updated_at = now()
            where merchant_id = ${hold.merchantId} and available_minor >= ${hold.amountMinor}
              and not exists (select 1 from holds where idempotency_key = ${hold.idempotencyKey})
            returning available_minor
          ), hold as (
            insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note,
                               idempotency_key, created_at)
            select ${hold.merchantId}::bigint, ${hold.amountMinor}::bigint, ${hold.type}::text, 'open',
                   ${hold.refType}::text, ${hold.refId}::text, ${hold.refNo}::text, ${hold.note}::text,
                   ${hold.idempotencyKey}::text, ${timeOrNow(at)}
            from bal
            on conflict (idempotency_key) do nothing
            returning id, created_at
          ), entry as (
            insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id,
                                    ref_no, hold_id, note, idempotency_key, created_at)
            select ${hold.merchantId}::bigint, ${hold.type}::text, ${-hold.amountMinor}::bigint, bal.available_minor,
                   ${hold.refType}::text, ${hold.refId}::text, ${hold.refNo}::text, hold.id, ${hold.note}::text,
                   ${hold.idempotencyKey}::text, hold.created_at
            from hold, bal
            returning *
          ), rollup as (${rollupFrom('entry')})
          select bal.available_minor::text as available, entry.id as entry_id, entry.hold_id,
                 (extract(epoch from entry.created_at) * 1000)::int8 as created_ms
          from bal left join entry on true`,
    );
    return appliedFrom(rows, (row, createdAt) => {
      const holdId = toNumber(row.hold_id);
      const availableAfterMinor = BigInt(String(row.available));
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
    });
  },

  undoHold: async (tx: Tx, merchantId: number, amountMinor: bigint) => {
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

  /** Inserts a release's entry and its rollup (the balance was already changed under the hold's lock). */
  insertEntry: async (tx: Tx, entry: NewEntry) => {
    const rows = await queryRows<{ id: unknown; created_ms: unknown }>(
      tx,
      sql`with entry as (
            insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id,
                                    ref_no, hold_id, note, idempotency_key, created_at)
            values (${entry.merchantId}, ${entry.type}, ${entry.amountMinor}, ${entry.availableAfterMinor},
                    ${entry.refType}, ${entry.refId}, ${entry.refNo}, ${entry.holdId}, ${entry.note},
                    ${entry.idempotencyKey}, ${NOW_MS})
            on conflict (idempotency_key) do nothing
            returning *
          ), rollup as (${rollupFrom('entry')})
          select id, (extract(epoch from created_at) * 1000)::int8 as created_ms from entry`,
    );
    const [row] = rows;
    if (!row) return undefined;
    return { ...entry, id: toNumber(row.id), createdAt: new Date(toNumber(row.created_ms)) } as FundFlowRow;
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
