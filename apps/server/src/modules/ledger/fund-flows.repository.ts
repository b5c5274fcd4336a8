import type { SessionCheck } from '../../plugins/auth-context.ts';
import { and, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, type Tx } from '../../db/client.ts';
import {
  type Bound,
  horizonMoved,
  hourlyTotals,
  sumsEq,
  sumsOf,
  sumsValue,
  sumsRowsWhere,
  sumsWithin,
} from '../../db/hourly-totals.ts';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { listPage } from '../../db/keyset.ts';
import type { Position } from '../../lib/cursor.ts';
import { fundFlowDaily, fundFlowHourly, fundFlows } from '../../db/schema/index.ts';
import type { FundFlowRow } from './ledger.repository.ts';

export type FundFlowFilter = {
  merchantId: number;
  type?: string;
  /** [from, to) in UTC. */
  from?: Date;
  to?: Date;
  refNo?: string;
  /** Exports' snapshot: only rows with an id up to this one (rows added later are left out). */
  maxId?: number;
};

export type FundFlowTotals = { count: number; inMinor: bigint; outMinor: bigint };

const DAY_MS = 24 * 3_600_000;
/** fund_flow_daily's name in rollup_horizons. */
const FUND_FLOW_HORIZON = 'fund_flow';
/** Advisory lock key: one closing of fund flow days at a time across every process. */
const CLOSE_DAYS_LOCK = 7_246_003;

function entryConditions(filter: FundFlowFilter, from = filter.from, to = filter.to): SQL {
  return and(
    eq(fundFlows.merchantId, filter.merchantId),
    filter.type ? eq(fundFlows.type, filter.type) : undefined,
    from ? gte(fundFlows.createdAt, from) : undefined,
    to ? lt(fundFlows.createdAt, to) : undefined,
    filter.refNo ? eq(fundFlows.refNo, filter.refNo) : undefined,
    filter.maxId !== undefined ? lte(fundFlows.id, filter.maxId) : undefined,
  )!;
}

export const fundFlowsRepository = {
  /** The filter as a condition on fund_flows (exports read its rows with their own statement). */
  conditions: (filter: FundFlowFilter): SQL => entryConditions(filter),

  /** One page, newest first (listPage). */
  findPage: (db: DbOrTx, filter: FundFlowFilter, limit: number, position: Position): Promise<FundFlowRow[]> =>
    listPage<FundFlowRow>(
      db,
      fundFlows,
      {
        merchantId: filter.merchantId,
        equal: {
          type: { column: fundFlows.type, value: filter.type },
          refNo: { column: fundFlows.refNo, value: filter.refNo },
        },
        from: filter.from,
        to: filter.to,
        maxId: filter.maxId,
      },
      limit,
      position,
    ),

  findById: async (db: DbOrTx, merchantId: number, id: number): Promise<FundFlowRow | undefined> => {
    const [row] = await db
      .select()
      .from(fundFlows)
      .where(and(eq(fundFlows.merchantId, merchantId), eq(fundFlows.id, id)));
    return row;
  },

  /**
   * Count, money in and money out of the whole filter. Whole UTC days before the horizon come from the
   * daily rollup, other whole hours from the hourly one the ledger keeps; only the partial hours at the
   * edges of a time range (and a reference-number search, which matches a handful of rows) read the
   * entries themselves.
   */
  totals: async (db: DbOrTx, filter: FundFlowFilter, session?: SessionCheck): Promise<FundFlowTotals> => {
    const values = {
      merchantId: filter.merchantId,
      type: filter.type || undefined,
      refNo: filter.refNo || undefined,
    };
    // The same sums of hour rows or of day rows.
    const part =
      (rollup: typeof fundFlowHourly | typeof fundFlowDaily, at: PgColumn) => (from: Bound, to: Bound) =>
        sumsOf(
          rollup,
          { entries: rollup.entries, in_minor: rollup.inMinor, out_minor: rollup.outMinor },
          and(
            eq(rollup.merchantId, sumsValue('merchantId')),
            sumsEq(rollup.type, values, 'type'),
            sumsWithin(at, from, to),
          ),
        );
    const sums = await hourlyTotals(db, {
      shape: 'fund_flows',
      values,
      from: filter.from,
      to: filter.to,
      rowsOnly: values.refNo !== undefined,
      rows: (from, to) => sql`
        select count(*) as entries,
               coalesce(sum(greatest(${fundFlows.amountMinor}, 0)), 0) as in_minor,
               coalesce(sum(greatest(-${fundFlows.amountMinor}, 0)), 0) as out_minor
        from ${fundFlows}
        where ${sumsRowsWhere(fundFlows, values, { type: fundFlows.type, refNo: fundFlows.refNo }, from, to)}`,
      rollup: part(fundFlowHourly, fundFlowHourly.hour),
      days: { horizon: FUND_FLOW_HORIZON, rollup: part(fundFlowDaily, fundFlowDaily.day) },
      columns: ['entries', 'in_minor', 'out_minor'],
      session,
    });
    return {
      count: Number(sums.entries),
      inMinor: BigInt(sums.in_minor),
      outMinor: BigInt(sums.out_minor),
    };
  },

  /**
   * For a back-dated entry (the only kind that may be dated before the horizon): the days cannot close
   * until this transaction ends (closeDays gives up while it holds this lock).
   */
  keepDaysOpen: async (tx: Tx): Promise<void> => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${CLOSE_DAYS_LOCK})`);
  },

  /** A back-dated entry's flow dated in a closed day: added to that day's row, as closeDays would have. */
  addToClosedDay: async (tx: Tx, flowId: number): Promise<void> => {
    await tx.execute(sql`
      insert into ${fundFlowDaily} as d (merchant_id, type, day, in_minor, out_minor, entries)
      select merchant_id, type, date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'),
             greatest(amount_minor, 0), greatest(-amount_minor, 0), 1
      from ${fundFlows}
      where id = ${flowId}
        and created_at < (select before from rollup_horizons where rollup = ${FUND_FLOW_HORIZON})
      on conflict (merchant_id, type, day) do update
        set in_minor = d.in_minor + excluded.in_minor, out_minor = d.out_minor + excluded.out_minor,
            entries = d.entries + excluded.entries`);
  },

  /**
   * Moves the daily rollup's horizon to the last UTC midnight at or before `before`, writing the rows of
   * the days it passes from their hours (the housekeeping job). An entry is dated by its transaction's
   * time, so a day is over for good once no transaction that began before its end is still open: while
   * one is (or may be: a session this role cannot see), or while a back-dated entry is being written
   * (keepDaysOpen), the horizon waits for a later sweep. One process at a time; the day rows and the
   * horizon are written together. Answers the new horizon, or undefined when it did not move.
   */
  closeDays: async (db: Db, before: Date): Promise<Date | undefined> => {
    const until = new Date(Math.floor(before.getTime() / DAY_MS) * DAY_MS);
    const moved = await db.transaction(async (tx) => {
      const [state] = await queryRows<{ got: boolean; since: Date | string | null }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${CLOSE_DAYS_LOCK}) as got,
                   (select before from rollup_horizons where rollup = ${FUND_FLOW_HORIZON}) as since`,
      );
      if (!state?.got) return undefined;
      if (state.since !== null && new Date(state.since) >= until) return undefined;
      // Its own statement: the insert below takes its snapshot after this one, so every transaction that
      // began before `until` and has ended by now is in it. A session this role may not see (another
      // role's, without pg_read_all_stats) counts as open: the days wait rather than close too early.
      const [open] = await queryRows<{ open: boolean }>(
        tx,
        sql`select exists (select 1 from pg_stat_activity
                              where datname = current_database() and backend_type = 'client backend'
                                and pid <> pg_backend_pid()
                                and (xact_start < ${until.toISOString()}::timestamptz
                                     or state is null or state = 'disabled'))
                   as open`,
      );
      if (open?.open) return undefined;
      await tx.execute(sql`
        with days as (
          insert into ${fundFlowDaily} (merchant_id, type, day, in_minor, out_minor, entries)
          select merchant_id, type, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
                 sum(in_minor), sum(out_minor), sum(entries)
          from ${fundFlowHourly}
          where hour >= coalesce(${state.since === null ? null : new Date(state.since).toISOString()}::timestamptz,
                                 '-infinity'::timestamptz)
            and hour < ${until.toISOString()}::timestamptz
          group by 1, 2, 3
        )
        insert into rollup_horizons (rollup, before) values (${FUND_FLOW_HORIZON}, ${until.toISOString()}::timestamptz)
        on conflict (rollup) do update set before = excluded.before`);
      return until;
    });
    if (moved) horizonMoved(db, FUND_FLOW_HORIZON);
    return moved;
  },
};
