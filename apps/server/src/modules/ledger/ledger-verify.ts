import { type SQL, sql } from 'drizzle-orm';
import { type Currency, fromMinor } from '@paydesk/shared';
import { RELEASE_TYPE_OF_HOLD } from '@paydesk/shared/funds/funds.schemas.ts';
import { type Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import { type Db, type DbOrTx, queryRows } from '../../db/client.ts';

// Every invariant of DESIGN section 3, checked in one consistent snapshot, for one merchant or all.

export const INVARIANTS = [
  'entry_balanced',
  'account_equals_postings',
  'trial_balance',
  'modes_apart',
  'available_not_negative',
  'locked_not_negative',
  'available_equals_entries',
  'locked_equals_open_holds',
  'fund_flows_match_postings',
  'available_after_chain',
  'entries_in_time_order',
  'hold_entries',
  'payout_hold_state',
  'hourly_rollup',
  'daily_rollup',
  'minute_rollup',
  'daily_report_balanced',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

/** The merchant_no of a problem in the platform's own books (trial balance, platform accounts). */
export const PLATFORM = 'platform';

export type LedgerProblem = {
  merchant_no: string;
  /** The mode of the merchant row or platform account the problem is in (DESIGN 12). */
  mode: Mode;
  invariant: Invariant;
  message: string;
};

export type LedgerReport = {
  ok: boolean;
  merchants_checked: number;
  entries_checked: number;
  /** What was checked of each mode (a merchant is a row in each). */
  modes: { mode: Mode; merchants_checked: number; entries_checked: number }[];
  problems: LedgerProblem[];
  /** More problems than listed (each check lists at most MAX_PER_CHECK). */
  truncated: boolean;
};

const MAX_PER_CHECK = 50;

const money = (minor: unknown, currency: unknown) =>
  `${fromMinor(BigInt(String(minor)), currency as Currency)} ${currency}`;

type Row = Record<string, unknown>;

/** Every invariant, of one merchant or all, of one mode or both. */
export async function verifyLedger(db: Db, merchantNo?: string, mode?: Mode): Promise<LedgerReport> {
  return db.transaction(
    async (tx) => {
      const modeScope = (column: SQL) => (mode ? sql`and ${column} = ${mode}` : sql``);
      // Every merchant-scoped check reads the merchant row as `m`.
      const scope = (column: SQL) =>
        sql`${merchantNo ? sql`and ${column} = ${merchantNo}` : sql``} ${modeScope(sql`m.mode`)}`;
      const problems: LedgerProblem[] = [];
      let truncated = false;
      const check = async (invariant: Invariant, query: SQL, describe: (row: Row) => string) => {
        const rows = await queryRows<Row>(tx, sql`${query} limit ${MAX_PER_CHECK + 1}`);
        if (rows.length > MAX_PER_CHECK) truncated = true;
        for (const row of rows.slice(0, MAX_PER_CHECK)) {
          problems.push({
            merchant_no: String(row.merchant_no ?? PLATFORM),
            mode: row.mode === 'test' ? 'test' : 'live',
            invariant,
            message: describe(row),
          });
        }
      };

      const counts = await queryRows<{ mode: Mode; merchants: unknown; entries: unknown }>(
        tx,
        sql`select m.mode, count(*)::int8::text as merchants,
                   sum((select count(*) from journal_entries j where j.merchant_id = m.id))::int8::text as entries
            from merchants m where true ${scope(sql`m.no`)} group by m.mode order by m.mode`,
      );

      await check(
        'entry_balanced',
        sql`select m.no as merchant_no, m.mode, j.id::text as id, j.idempotency_key as key, s.currency,
                   s.total::text as total, s.lines::text as lines
            from (select p.entry_id, a.currency, sum(p.amount_minor) as total, count(*) as lines
                  from postings p join ledger_accounts a on a.id = p.account_id
                  group by p.entry_id, a.currency) s
            right join journal_entries j on j.id = s.entry_id
            left join merchants m on m.id = j.merchant_id
            where (s.entry_id is null or s.total <> 0 or s.lines < 2) ${scope(sql`m.no`)}
            order by j.id`,
        (r) =>
          r.currency === null
            ? `journal entry ${r.id} (${r.key}) has no postings`
            : Number(r.lines) < 2
              ? `journal entry ${r.id} (${r.key}) has a single posting`
              : `journal entry ${r.id} (${r.key}) sums to ${money(r.total, r.currency)}, not zero`,
      );
      await check(
        'account_equals_postings',
        sql`select m.no as merchant_no, m.mode, a.code, a.currency, a.balance_minor::text as balance,
                   coalesce(s.total, 0)::text as postings
            from ledger_accounts a
            left join (select account_id, sum(amount_minor) as total from postings group by account_id) s
              on s.account_id = a.id
            left join merchants m on m.id = a.merchant_id
            where a.balance_minor <> coalesce(s.total, 0)
              ${merchantNo ? sql`and m.no = ${merchantNo}` : sql``} ${modeScope(sql`a.mode`)}
            order by a.id`,
        (r) =>
          `account ${r.code} holds ${money(r.balance, r.currency)} but its postings sum to ${money(r.postings, r.currency)}`,
      );
      if (!merchantNo) {
        await check(
          'trial_balance',
          sql`select null as merchant_no, mode, currency, sum(balance_minor)::text as total
              from ledger_accounts where true ${modeScope(sql`mode`)}
              group by mode, currency having sum(balance_minor) <> 0 order by mode, currency`,
          (r) =>
            `the ${String(r.mode)} ${String(r.currency)} accounts sum to ${money(r.total, r.currency)}, not zero`,
        );
      }
      // No entry of a merchant row posts to an account of the other mode (platform, channel or merchant).
      await check(
        'modes_apart',
        sql`select m.no as merchant_no, m.mode, j.id::text as id, j.idempotency_key as key, a.code,
                   a.mode as account_mode
            from postings p
            join journal_entries j on j.id = p.entry_id
            join merchants m on m.id = j.merchant_id
            join ledger_accounts a on a.id = p.account_id
            where a.mode <> m.mode ${scope(sql`m.no`)}
            order by j.id`,
        (r) =>
          `journal entry ${r.id} (${r.key}) of ${r.mode} mode posts to ${r.account_mode} account ${r.code}`,
      );
      for (const [invariant, kind, label] of [
        ['available_not_negative', 'merchant_available', 'available'],
        ['locked_not_negative', 'merchant_locked', 'locked'],
      ] as const) {
        await check(
          invariant,
          sql`select m.no as merchant_no, m.mode, a.currency, a.balance_minor::text as value
              from ledger_accounts a join merchants m on m.id = a.merchant_id
              where a.kind = ${kind} and a.balance_minor < 0 ${scope(sql`m.no`)} order by m.id`,
          (r) => `${label} is negative: ${money(r.value, r.currency)}`,
        );
      }
      await check(
        'available_equals_entries',
        sql`select m.no as merchant_no, m.mode, m.currency,
                   coalesce(a.balance_minor, 0)::text as available, coalesce(e.total, 0)::text as entries
            from merchants m
            left join ledger_accounts a on a.merchant_id = m.id and a.kind = 'merchant_available'
            left join (select merchant_id, sum(amount_minor) as total from fund_flows group by merchant_id) e
              on e.merchant_id = m.id
            where coalesce(a.balance_minor, 0) <> coalesce(e.total, 0) ${scope(sql`m.no`)} order by m.id`,
        (r) =>
          `available is ${money(r.available, r.currency)} but its fund flow entries sum to ${money(r.entries, r.currency)}`,
      );
      await check(
        'locked_equals_open_holds',
        sql`select m.no as merchant_no, m.mode, m.currency,
                   coalesce(a.balance_minor, 0)::text as locked, coalesce(h.total, 0)::text as held
            from merchants m
            left join ledger_accounts a on a.merchant_id = m.id and a.kind = 'merchant_locked'
            left join (select merchant_id, sum(amount_minor) as total from holds where status = 'open'
                       group by merchant_id) h on h.merchant_id = m.id
            where coalesce(a.balance_minor, 0) <> coalesce(h.total, 0) ${scope(sql`m.no`)} order by m.id`,
        (r) => `locked is ${money(r.locked, r.currency)} but open holds sum to ${money(r.held, r.currency)}`,
      );
      await check(
        'fund_flows_match_postings',
        sql`with available as (
              select p.entry_id, p.amount_minor, a.merchant_id
              from postings p join ledger_accounts a on a.id = p.account_id
              where a.kind = 'merchant_available'
            )
            select m.no as merchant_no, m.mode, coalesce(f.entry_id, av.entry_id)::text as entry,
                   f.id::text as flow, f.amount_minor::text as flow_amount, av.amount_minor::text as posted
            from fund_flows f
            full join available av on av.entry_id = f.entry_id and av.merchant_id = f.merchant_id
            join merchants m on m.id = coalesce(f.merchant_id, av.merchant_id)
            where (f.id is null or av.entry_id is null or f.amount_minor <> av.amount_minor) ${scope(sql`m.no`)}
            order by 2`,
        (r) =>
          r.flow === null
            ? `journal entry ${r.entry} moves available but has no fund flow entry`
            : r.posted === null
              ? `fund flow entry ${r.flow} has no posting on the available account in journal entry ${r.entry}`
              : `fund flow entry ${r.flow} shows ${r.flow_amount} but journal entry ${r.entry} posted ${r.posted}`,
      );
      await check(
        'available_after_chain',
        sql`select m.no as merchant_no, m.mode, m.currency, f.id::text as id, f.available_after_minor::text as recorded,
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
        sql`select m.no as merchant_no, m.mode, f.id::text as id
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
            select m.no as merchant_no, m.mode, h.id::text as id, h.status, h.type,
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
      // A payout's hold follows its status (DESIGN 3, 4 and 16): open while it waits for approval, is
      // pending or processing; captured once it succeeded; released once it failed, was cancelled or
      // rejected. (A refund received is a new entry: the hold stays captured.)
      await check(
        'payout_hold_state',
        sql`select m.no as merchant_no, m.mode, p.trade_no, p.status, h.status as hold_status
            from holds h
            join payouts p on h.ref_type = 'payout' and h.type = 'payout_deduction'
                          and p.merchant_id = h.merchant_id and p.id::text = h.ref_id
            join merchants m on m.id = p.merchant_id
            where h.status <> (case when p.status in ('pending_approval', 'pending', 'processing') then 'open'
                                    when p.status in ('success', 'refund_received') then 'captured'
                                    else 'released' end)
                  ${scope(sql`m.no`)}
            order by h.id`,
        (r) => `payout ${r.trade_no} is ${r.status} but its hold is ${r.hold_status}`,
      );
      // A rollup of the entries by `bin` against the entries themselves (before its horizon, if it has
      // one): the bins that differ, each at its start as `format` in UTC.
      const binsOff = (table: string, column: string, bin: string, format: string, horizon?: string) => {
        const at = sql.identifier(column);
        const before = horizon
          ? sql`where created_at < coalesce((select before from rollup_horizons where rollup = ${horizon}),
                                            '-infinity'::timestamptz)`
          : sql``;
        return sql`with actual as (
              select merchant_id, type, date_bin(${bin}::interval, created_at, timestamptz '2000-01-01 00:00:00+00') as at,
                     sum(greatest(amount_minor, 0)) as in_minor, sum(greatest(-amount_minor, 0)) as out_minor,
                     count(*) as entries
              from fund_flows ${before} group by 1, 2, 3
            )
            select m.no as merchant_no, m.mode, coalesce(a.type, r.type) as type,
                   to_char(coalesce(a.at, r.${at}) at time zone 'UTC', ${format}::text) as at
            from actual a
            full join ${sql.identifier(table)} r on r.merchant_id = a.merchant_id and r.type = a.type and r.${at} = a.at
            join merchants m on m.id = coalesce(a.merchant_id, r.merchant_id)
            where (a.in_minor is distinct from r.in_minor or a.out_minor is distinct from r.out_minor
                   or a.entries is distinct from r.entries) ${scope(sql`m.no`)}
            order by m.no, 3`;
      };
      await check(
        'hourly_rollup',
        binsOff('fund_flow_hourly', 'hour', '1 hour', 'YYYY-MM-DD HH24:00'),
        (r) => `the hourly sums of ${r.type} at ${r.at} UTC do not match its entries`,
      );
      await check(
        'daily_rollup',
        sql`with horizon as (
              select coalesce((select before from rollup_horizons where rollup = 'fund_flow'),
                              '-infinity'::timestamptz) as before
            ), actual as (
              select merchant_id, type, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00') as day,
                     sum(in_minor) as in_minor, sum(out_minor) as out_minor, sum(entries) as entries
              from fund_flow_hourly where hour < (select before from horizon) group by 1, 2, 3
            )
            select m.no as merchant_no, m.mode, coalesce(a.type, d.type) as type,
                   to_char(coalesce(a.day, d.day) at time zone 'UTC', 'YYYY-MM-DD') as day
            from actual a
            full join fund_flow_daily d on d.merchant_id = a.merchant_id and d.type = a.type and d.day = a.day
            join merchants m on m.id = coalesce(a.merchant_id, d.merchant_id)
            where (a.in_minor is distinct from d.in_minor or a.out_minor is distinct from d.out_minor
                   or a.entries is distinct from d.entries) ${scope(sql`m.no`)}
            order by m.no, 3`,
        (r) => `the daily sums of ${r.type} on ${r.day} (UTC) do not match its hours`,
      );
      await check(
        'minute_rollup',
        binsOff('fund_flow_minutely', 'minute', '1 minute', 'YYYY-MM-DD HH24:MI', 'fund_flow_minute'),
        (r) => `the minute sums of ${r.type} at ${r.at} UTC do not match its entries`,
      );
      // A kept daily report (modules/reports): opening + the day's entries = closing, and both balances and
      // the entry count are the ledger's own for that day.
      await check(
        'daily_report_balanced',
        sql`with kept as (
              select r.*, m.no as merchant_no, m.mode, m.currency,
                     r.opening_minor + r.collection_net_minor + r.payout_deducted_minor + r.refunds_minor
                       + r.collection_refunds_minor + r.top_ups_minor + r.withdrawals_minor + r.transfers_minor + r.freezes_minor as summed,
                     coalesce((select o.available_after_minor from fund_flows o
                               where o.merchant_id = r.merchant_id and o.created_at < r.starts_at
                               order by o.created_at desc nulls last, o.id desc nulls last limit 1), 0) as ledger_opening,
                     coalesce((select o.available_after_minor from fund_flows o
                               where o.merchant_id = r.merchant_id and o.created_at < r.ends_at
                               order by o.created_at desc nulls last, o.id desc nulls last limit 1), 0) as ledger_closing,
                     (select count(*) from fund_flows e where e.merchant_id = r.merchant_id
                        and e.created_at >= r.starts_at and e.created_at < r.ends_at) as ledger_entries
              from daily_reports r join merchants m on m.id = r.merchant_id
              where true ${scope(sql`m.no`)}
            )
            select merchant_no, mode, currency, day::text as day, timezone, opening_minor::text as opening,
                   closing_minor::text as closing, summed::text as summed, ledger_opening::text as ledger_opening,
                   ledger_closing::text as ledger_closing, entries, ledger_entries::int as ledger_entries
            from kept
            where closing_minor <> summed or opening_minor <> ledger_opening or closing_minor <> ledger_closing
                  or entries <> ledger_entries
            order by merchant_no, day`,
        (r) => {
          const day = `the daily report of ${r.day} (${r.timezone})`;
          if (r.closing !== r.summed)
            return `${day} closes at ${money(r.closing, r.currency)} but its opening and entries sum to ${money(r.summed, r.currency)}`;
          if (r.opening !== r.ledger_opening)
            return `${day} opens at ${money(r.opening, r.currency)} but the ledger's balance then was ${money(r.ledger_opening, r.currency)}`;
          if (r.closing !== r.ledger_closing)
            return `${day} closes at ${money(r.closing, r.currency)} but the ledger's balance then was ${money(r.ledger_closing, r.currency)}`;
          return `${day} counts ${String(r.entries)} entries but the ledger has ${String(r.ledger_entries)} that day`;
        },
      );

      return {
        ok: problems.length === 0,
        merchants_checked: counts.reduce((sum, c) => sum + Number(c.merchants), 0),
        entries_checked: counts.reduce((sum, c) => sum + Number(c.entries), 0),
        modes: counts.map((c) => ({
          mode: c.mode,
          merchants_checked: Number(c.merchants),
          entries_checked: Number(c.entries),
        })),
        problems,
        truncated,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export type TrialBalanceAccount = {
  code: string;
  kind: string;
  channel: string | null;
  balance: string;
};

export type TrialBalance = {
  /** Every mode's accounts sum to zero in every currency. */
  balanced: boolean;
  /** One item per mode and currency (live first): the two modes' books are apart (DESIGN 12). */
  currencies: {
    mode: Mode;
    currency: string;
    /** The platform's and channels' own accounts, one by one. */
    accounts: TrialBalanceAccount[];
    /** All merchants' available and locked together (what the platform owes its merchants). */
    merchants: { available: string; locked: string; count: number };
    total: string;
  }[];
};

/** Every platform account and the merchants' accounts summed, per mode and currency, with the total (zero). */
export async function trialBalance(db: DbOrTx, mode?: Mode): Promise<TrialBalance> {
  const rows = await queryRows<{
    mode: Mode;
    currency: Currency;
    code: string | null;
    kind: string;
    channel_code: string | null;
    balance: string;
    accounts: unknown;
  }>(
    db,
    // A platform account's shards ("fee_revenue:CNY", "fee_revenue:CNY#5", ...) summed as the one account.
    sql`select mode, currency, regexp_replace(code, '#[0-9]+$', '') as code, kind, channel_code,
               sum(balance_minor)::text as balance, count(*) as accounts
        from ledger_accounts where merchant_id is null ${mode ? sql`and mode = ${mode}` : sql``}
        group by mode, currency, 3, kind, channel_code
        union all
        select mode, currency, null, kind, null, sum(balance_minor)::text, count(*)
        from ledger_accounts where merchant_id is not null ${mode ? sql`and mode = ${mode}` : sql``}
        group by mode, currency, kind
        order by 1, 2, 4, 3`,
  );
  const books = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.mode} ${row.currency}`;
    books.set(key, [...(books.get(key) ?? []), row]);
  }
  const currencies = [...books.values()].map((list) => {
    const { mode: bookMode, currency } = list[0];
    const merchantRow = (kind: string) => list.find((r) => r.code === null && r.kind === kind);
    const total = list.reduce((sum, r) => sum + BigInt(r.balance), 0n);
    return {
      mode: bookMode,
      currency,
      accounts: list
        .filter((r) => r.code !== null)
        .map((r) => ({
          code: r.code!,
          kind: r.kind,
          channel: r.channel_code,
          balance: fromMinor(BigInt(r.balance), currency),
        })),
      merchants: {
        available: fromMinor(BigInt(merchantRow('merchant_available')?.balance ?? 0), currency),
        locked: fromMinor(BigInt(merchantRow('merchant_locked')?.balance ?? 0), currency),
        count: Number(merchantRow('merchant_available')?.accounts ?? 0),
      },
      total: fromMinor(total, currency),
      zero: total === 0n,
    };
  });
  return {
    balanced: currencies.every((c) => c.zero),
    currencies: currencies.map(({ zero: _zero, ...rest }) => rest),
  };
}
