import { type SQL, sql } from 'drizzle-orm';
import { type Currency, fromMinor } from '@paydesk/shared';
import { RELEASE_TYPE_OF_HOLD } from '@paydesk/shared/funds/funds.schemas.ts';
import { type Db, queryRows } from '../../db/client.ts';

// Every invariant of DESIGN section 3, checked in one consistent snapshot, for one merchant or all.

export const INVARIANTS = [
  'available_not_negative',
  'locked_not_negative',
  'available_equals_entries',
  'locked_equals_open_holds',
  'available_after_chain',
  'entries_in_time_order',
  'hold_entries',
  'hourly_rollup',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export type LedgerProblem = {
  merchant_no: string;
  invariant: Invariant;
  message: string;
};

export type LedgerReport = {
  ok: boolean;
  merchants_checked: number;
  entries_checked: number;
  problems: LedgerProblem[];
  /** More problems than listed (each check lists at most MAX_PER_CHECK). */
  truncated: boolean;
};

const MAX_PER_CHECK = 50;

const money = (minor: unknown, currency: unknown) =>
  `${fromMinor(BigInt(String(minor)), currency as Currency)} ${currency}`;

type Row = Record<string, unknown>;

export async function verifyLedger(db: Db, merchantNo?: string): Promise<LedgerReport> {
  return db.transaction(
    async (tx) => {
      const scope = (column: SQL) => (merchantNo ? sql`and ${column} = ${merchantNo}` : sql``);
      const problems: LedgerProblem[] = [];
      let truncated = false;
      const check = async (invariant: Invariant, query: SQL, describe: (row: Row) => string) => {
        const rows = await queryRows<Row>(tx, sql`${query} limit ${MAX_PER_CHECK + 1}`);
        if (rows.length > MAX_PER_CHECK) truncated = true;
        for (const row of rows.slice(0, MAX_PER_CHECK)) {
          problems.push({ merchant_no: String(row.merchant_no), invariant, message: describe(row) });
        }
      };

      const [counts] = await queryRows<{ merchants: unknown; entries: unknown }>(
        tx,
        sql`select (select count(*) from merchants m where true ${scope(sql`m.no`)})::int8::text as merchants,
                   (select count(*) from fund_flows f join merchants m on m.id = f.merchant_id
                     where true ${scope(sql`m.no`)})::int8::text as entries`,
      );

      await check(
        'available_not_negative',
        sql`select m.no as merchant_no, m.currency, b.available_minor::text as value
            from balances b join merchants m on m.id = b.merchant_id
            where b.available_minor < 0 ${scope(sql`m.no`)} order by m.id`,
        (r) => `available is negative: ${money(r.value, r.currency)}`,
      );
      await check(
        'locked_not_negative',
        sql`select m.no as merchant_no, m.currency, b.locked_minor::text as value
            from balances b join merchants m on m.id = b.merchant_id
            where b.locked_minor < 0 ${scope(sql`m.no`)} order by m.id`,
        (r) => `locked is negative: ${money(r.value, r.currency)}`,
      );
      await check(
        'available_equals_entries',
        sql`select m.no as merchant_no, m.currency,
                   coalesce(b.available_minor, 0)::text as available, coalesce(e.total, 0)::text as entries
            from merchants m
            left join balances b on b.merchant_id = m.id
            left join (select merchant_id, sum(amount_minor) as total from fund_flows group by merchant_id) e
              on e.merchant_id = m.id
            where coalesce(b.available_minor, 0) <> coalesce(e.total, 0) ${scope(sql`m.no`)} order by m.id`,
        (r) =>
          `available is ${money(r.available, r.currency)} but its entries sum to ${money(r.entries, r.currency)}`,
      );
      await check(
        'locked_equals_open_holds',
        sql`select m.no as merchant_no, m.currency,
                   coalesce(b.locked_minor, 0)::text as locked, coalesce(h.total, 0)::text as held
            from merchants m
            left join balances b on b.merchant_id = m.id
            left join (select merchant_id, sum(amount_minor) as total from holds where status = 'open'
                       group by merchant_id) h on h.merchant_id = m.id
            where coalesce(b.locked_minor, 0) <> coalesce(h.total, 0) ${scope(sql`m.no`)} order by m.id`,
        (r) => `locked is ${money(r.locked, r.currency)} but open holds sum to ${money(r.held, r.currency)}`,
      );
      await check(
        'available_after_chain',
        sql`select m.no as merchant_no, m.currency, f.id::text as id, f.available_after_minor::text as recorded,
                   f.running::text as running
            from (select id, merchant_id, available_after_minor,
                         sum(amount_minor) over (partition by merchant_id order by id) as running
                  from fund_flows) f
            join merchants m on m.id = f.merchant_id
            where f.available_after_minor <> f.running ${scope(sql`m.no`)} order by f.id`,
        (r) =>
          `entry ${r.id} records available after ${money(r.recorded, r.currency)} but the entries up to it sum to ${money(r.running, r.currency)}`,
      );
      await check(
        'entries_in_time_order',
        sql`select m.no as merchant_no, f.id::text as id
            from (select id, merchant_id, created_at,
                         lag(created_at) over (partition by merchant_id order by id) as previous
                  from fund_flows) f
            join merchants m on m.id = f.merchant_id
            where f.created_at < f.previous ${scope(sql`m.no`)} order by f.id`,
        (r) => `entry ${r.id} is dated before the entry written before it`,
      );
      const releaseTypes = sql.join(
        Object.entries(RELEASE_TYPE_OF_HOLD).map(([held, released]) => sql`when ${held} then ${released}`),
        sql` `,
      );
      await check(
        'hold_entries',
        sql`with counted as (
              select f.hold_id,
                     count(*) filter (where f.type = h.type and f.amount_minor = -h.amount_minor) as opened,
                     count(*) filter (where f.type = (case h.type ${releaseTypes} end)
                                        and f.amount_minor = h.amount_minor) as released,
                     count(*) as total
              from fund_flows f join holds h on h.id = f.hold_id
              group by f.hold_id
            )
            select m.no as merchant_no, h.id::text as id, h.status, h.type,
                   coalesce(c.opened, 0)::text as opened, coalesce(c.released, 0)::text as released,
                   coalesce(c.total, 0)::text as total
            from holds h
            join merchants m on m.id = h.merchant_id
            left join counted c on c.hold_id = h.id
            where (coalesce(c.opened, 0) <> 1
                   or coalesce(c.released, 0) <> (case when h.status = 'released' then 1 else 0 end)
                   or coalesce(c.total, 0) <> coalesce(c.opened, 0) + coalesce(c.released, 0))
                  ${scope(sql`m.no`)}
            order by h.id`,
        (r) =>
          `hold ${r.id} (${r.type}, ${r.status}) has ${r.opened} opening and ${r.released} release entries, ${r.total} in all`,
      );
      await check(
        'hourly_rollup',
        sql`with actual as (
              select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') as hour,
                     sum(greatest(amount_minor, 0)) as in_minor, sum(greatest(-amount_minor, 0)) as out_minor,
                     count(*) as entries
              from fund_flows group by 1, 2, 3
            )
            select m.no as merchant_no, coalesce(a.type, r.type) as type,
                   to_char(coalesce(a.hour, r.hour) at time zone 'UTC', 'YYYY-MM-DD HH24:00') as hour
            from actual a
            full join fund_flow_hourly r
              on r.merchant_id = a.merchant_id and r.type = a.type and r.hour = a.hour
            join merchants m on m.id = coalesce(a.merchant_id, r.merchant_id)
            where (a.in_minor is distinct from r.in_minor or a.out_minor is distinct from r.out_minor
                   or a.entries is distinct from r.entries) ${scope(sql`m.no`)}
            order by m.no, 3`,
        (r) => `the hourly sums of ${r.type} at ${r.hour} UTC do not match its entries`,
      );

      return {
        ok: problems.length === 0,
        merchants_checked: Number(counts?.merchants ?? 0),
        entries_checked: Number(counts?.entries ?? 0),
        problems,
        truncated,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
