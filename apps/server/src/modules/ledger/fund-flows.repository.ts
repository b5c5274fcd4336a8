import { and, eq, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, type Tx } from '../../db/client.ts';
import {
  type Bound,
  claimClose,
  closeMinuteRollup,
  horizonMoved,
  rollupSums,
  openBefore,
  setHorizon,
  sumsEq,
  sumsOf,
  sumsValue,
  sumsRowsWhere,
  sumsWithin,
} from '../lists/index.ts';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fundFlowDaily, fundFlowHourly, fundFlowMinutely, fundFlows } from '../../db/schema/index.ts';
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
/** fund_flow_minutely's name in rollup_horizons. */
const FUND_FLOW_MINUTE_HORIZON = 'fund_flow_minute';
/** Advisory lock key: one closing of fund flow days or minutes at a time across every process. */
const CLOSE_DAYS_LOCK = 7_246_003;

export const fundFlowsRepository = {
  findById: async (db: DbOrTx, merchantId: number, id: number): Promise<FundFlowRow | undefined> => {
    const [row] = await db
      .select()
      .from(fundFlows)
      .where(and(eq(fundFlows.merchantId, merchantId), eq(fundFlows.id, id)));
    return row;
  },

  /**
   * Count, money in and money out of the whole filter. Whole UTC days before the horizon come from the
   * daily rollup, other whole hours from the hourly one the ledger keeps, the partial hours at the edges of
   * a time range from the minute rows (hours before their horizon); only the partial hours after it, the
   * seconds of a bound not on the minute, and a reference-number search (a handful of rows) read the
   * entries themselves.
   */
  totals: async (db: DbOrTx, filter: FundFlowFilter): Promise<FundFlowTotals> => {
    const values = {
      merchantId: filter.merchantId,
      type: filter.type || undefined,
      refNo: filter.refNo || undefined,
    };
    // The same sums of hour, day or minute rows.
    const part =
      (rollup: typeof fundFlowHourly | typeof fundFlowDaily | typeof fundFlowMinutely, at: PgColumn) =>
      (from: Bound, to: Bound) =>
        sumsOf(
          rollup,
          { entries: rollup.entries, in_minor: rollup.inMinor, out_minor: rollup.outMinor },
          and(
            eq(rollup.merchantId, sumsValue('merchantId')),
            sumsEq(rollup.type, values, 'type'),
            sumsWithin(at, from, to),
          ),
        );
    const sums = await rollupSums(db, {
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
      minutes: { horizon: FUND_FLOW_MINUTE_HORIZON, rollup: part(fundFlowMinutely, fundFlowMinutely.minute) },
      columns: ['entries', 'in_minor', 'out_minor'],
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

  /**
   * A back-dated entry's flow dated in a closed day or hour: added to that day's row and that minute's,
   * as closeDays and closeMinutes would have.
   */
  addToClosed: async (tx: Tx, flowId: number): Promise<void> => {
    // The flow's row in `table` (its time binned by `bin` into `at`), if dated before horizon `name`.
    const addTo = (
      table: typeof fundFlowDaily | typeof fundFlowMinutely,
      at: string,
      bin: string,
      name: string,
    ) =>
      sql`insert into ${table} as r (merchant_id, type, ${sql.identifier(at)}, in_minor, out_minor, entries)
          select merchant_id, type, date_bin(${bin}::interval, created_at, timestamptz '2000-01-01 00:00:00+00'),
                 in_minor, out_minor, 1
          from flow where created_at < (select before from rollup_horizons where rollup = ${name})
          on conflict (merchant_id, type, ${sql.identifier(at)}) do update
            set in_minor = r.in_minor + excluded.in_minor, out_minor = r.out_minor + excluded.out_minor,
                entries = r.entries + excluded.entries`;
    await tx.execute(sql`
      with flow as (
        select merchant_id, type, created_at, greatest(amount_minor, 0) as in_minor,
               greatest(-amount_minor, 0) as out_minor
        from ${fundFlows} where id = ${flowId}
      ), day as (${addTo(fundFlowDaily, 'day', '1 day', FUND_FLOW_HORIZON)})
      ${addTo(fundFlowMinutely, 'minute', '1 minute', FUND_FLOW_MINUTE_HORIZON)}`);
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
      const state = await claimClose(tx, CLOSE_DAYS_LOCK, FUND_FLOW_HORIZON);
      if (!state || (state.since !== null && state.since >= until)) return undefined;
      if (await openBefore(tx, until)) return undefined;
      await tx.execute(sql`
        insert into ${fundFlowDaily} (merchant_id, type, day, in_minor, out_minor, entries)
        select merchant_id, type, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
               sum(in_minor), sum(out_minor), sum(entries)
        from ${fundFlowHourly}
        where hour >= coalesce(${state.since?.toISOString() ?? null}::timestamptz, '-infinity'::timestamptz)
          and hour < ${until.toISOString()}::timestamptz
        group by 1, 2, 3`);
      await setHorizon(tx, FUND_FLOW_HORIZON, until);
      return until;
    });
    if (moved) horizonMoved(db, FUND_FLOW_HORIZON);
    return moved;
  },

  /**
   * Moves the minute rollup's horizon to the last UTC hour at or before `before`, writing the minute rows
   * of the hours it passes from their entries (the housekeeping job; closeMinuteRollup). Back-dated
   * entries hold it back as they hold the days (keepDaysOpen). The first close starts at the merchants'
   * oldest entry.
   */
  closeMinutes: (db: Db, before: Date): Promise<Date | undefined> =>
    closeMinuteRollup(db, {
      lock: CLOSE_DAYS_LOCK,
      horizon: FUND_FLOW_MINUTE_HORIZON,
      before,
      tables: [fundFlows],
      build: (tx, from, to) =>
        tx.execute(sql`
          insert into ${fundFlowMinutely} (merchant_id, type, minute, in_minor, out_minor, entries)
          select m.id, f.type, date_bin('1 minute', f.created_at, timestamptz '2000-01-01 00:00:00+00'),
                 sum(greatest(f.amount_minor, 0)), sum(greatest(-f.amount_minor, 0)), count(*)
          from merchants m
          cross join lateral (select type, created_at, amount_minor from ${fundFlows}
                              where merchant_id = m.id and created_at >= ${from.toISOString()}::timestamptz
                                and created_at < ${to.toISOString()}::timestamptz) as f
          group by 1, 2, 3`),
    }),
};
