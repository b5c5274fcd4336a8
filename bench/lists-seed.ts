import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/lib/password.ts';
import { createBenchDatabase, fixed } from './lib.ts';

// The data of the list benchmarks (DESIGN 8): one merchant with `rows` collections, payouts and fund flow
// entries (10,000,000 each by default) and `small` top-ups and withdrawals, spread over the 90 days before
// the hour the seed runs, loaded by a few INSERT ... SELECT generate_series statements (pg-copy-streams is
// not installed). Every value is a function of the row number (hashint8), so a seed of the same size
// always writes the same rows, and the rows are written oldest first, ids in time order, as the server
// writes them.
//
// - collections: 5 channels (3 settled T+0 every 10 minutes, 2 T+1), to_be_paid only in their last 30
//   minutes, else 80% paid, 15% closed, 5% failed; paid orders belong to the settlement batch that the
//   settlement job (every 10 minutes) would have made of them, unsettled if that batch is still to come.
// - settlements: those batches, each settled by its journal entry.
// - payouts: 2 channels, pending or processing in their last 15 minutes, else 88% success, 7% failed,
//   2% rejected, 1% cancelled, 2% refund received (older than 3 days); 10% from the console.
// - top-ups (recharges) and withdrawals: approved or rejected, paid or rejected; pending in the last hours.
// - the ledger, as it would have written it: one journal entry, its postings (DESIGN 3) and its fund
//   flow row per settlement batch, per payout refund received and per approved top-up, and operator
//   transfers in and out for the rest of `rows` (the first one the merchant's opening funds). Holds are not
//   modelled: payouts and withdrawals carry no hold and write no entry (payout_deduction and withdrawal do
//   not appear in the fund flow).
// - The load runs with session_replication_role = replica, as bench/fund-flow-list.ts loads the ledger:
//   no foreign key checks and no triggers. Row by row they cost more than the rows themselves (measured
//   on 50,000 collections: 2.8 s without, 7.6 s with: 3.0 s in the order_hourly trigger, 1.0 s in the
//   foreign keys), which is the difference between minutes and an hour at 10,000,000 rows. What they
//   would have done is done after the load, in bulk: the accounts' balances are summed from the postings,
//   fund_flow_hourly from the fund flows, order_hourly and list_hourly by migrations 0008's and 0015's own
//   backfill statements; then checkSeed() proves the result consistent (references, balanced entries,
//   rollups = rows).

export const LISTS_MERCHANT_NO = 'MLISTS1';
export const LISTS_USER = { email: 'lists@bench.test', password: 'bench-password-1' };
/** Days of history before the hour the seed runs. */
export const LISTS_DAYS = 90;

const COLLECTION_CHANNELS = [
  { code: 'alipay-qr', cycle: 'T0', feePpm: 15_000, share: 40 },
  { code: 'wechat-h5', cycle: 'T0', feePpm: 18_000, share: 25 },
  { code: 'quick-pay', cycle: 'T0', feePpm: 12_000, share: 10 },
  { code: 'unionpay', cycle: 'T1', feePpm: 8_000, share: 15 },
  { code: 'bank-transfer', cycle: 'T1', feePpm: 5_000, share: 10 },
] as const;
const PAYOUT_CHANNELS = [
  { code: 'bank-cn', feePpm: 10_000, fixedFeeMinor: 50, share: 70 },
  { code: 'fast-cn', feePpm: 12_000, fixedFeeMinor: 100, share: 30 },
] as const;
/** The merchant's first entry: funds enough that no transfer out ever takes available below zero. */
const OPENING_MINOR = 10_000_000_000;

export type SeedOptions = { rows: number; small: number };

type Step = (
  label: string,
  work: () => Promise<number | { rows: number; detail: string } | void>,
) => Promise<void>;

/** Creates a database of its own and seeds it; answers it (the caller keeps or drops it). */
export async function createListsDatabase(options: SeedOptions) {
  const bench = await createBenchDatabase('lists');
  try {
    console.log(
      `seed: database ${bench.name}: ${options.rows.toLocaleString('en')} collections, payouts and fund flow entries, ${options.small.toLocaleString('en')} top-ups and withdrawals, for one merchant`,
    );
    await seedLists(bench.url, options);
    return bench;
  } catch (error) {
    await bench.drop();
    throw error;
  }
}

export async function seedLists(url: string, { rows, small }: SeedOptions): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string) => client.query(text);
  const started = performance.now();
  const seconds = (from: number) => `${fixed((performance.now() - from) / 1000, 1)} s`;
  const step: Step = async (label, work) => {
    const at = performance.now();
    const done = await work();
    const rows = typeof done === 'number' ? done : done?.rows;
    const counted = rows === undefined ? '' : `${rows.toLocaleString('en')} rows`;
    const detail = typeof done === 'object' ? `   (${done.detail})` : '';
    console.log(`  ${label.padEnd(44)}${counted.padStart(18)}${seconds(at).padStart(10)}${detail}`);
  };
  // A big table is loaded without the indexes that no constraint owns, which are then built from their
  // own definitions (pg_indexes: the migrations' DDL): a sorted build costs a fraction of 10,000,000
  // one-row insertions into each index. (Built fresh, they are denser than indexes grown by inserts.)
  const withoutIndexes = async (table: string, load: () => Promise<number>) => {
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = 'public' and i.tablename = $1
         and not exists (select 1 from pg_constraint c where c.conrelid = $1::regclass and c.conname = i.indexname)`,
      [table],
    );
    for (const index of indexes) await q(`drop index "${index.name}"`);
    const at = performance.now();
    const rows = await load();
    const loaded = performance.now();
    const loading = seconds(at);
    for (const index of indexes) await q(index.definition);
    return { rows, detail: `rows ${loading} + ${indexes.length} indexes ${seconds(loaded)}` };
  };
  const count = async (text: string) => Number((await q(text)).rows[0].n);
  try {
    await q(`set statement_timeout = 0`);
    await q(`set timezone = 'UTC'`);
    await q(`set work_mem = '256MB'`);
    await q(`set maintenance_work_mem = '512MB'`);
    await q(`set temp_buffers = '256MB'`);

    const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const start = new Date(end.getTime() - LISTS_DAYS * 86_400_000);
    const spanSeconds = (end.getTime() - start.getTime()) / 1000;
    const END = `timestamptz '${end.toISOString()}'`;
    const START = `timestamptz '${start.toISOString()}'`;
    // Row g of n is created at START + (g - 1) x span / n, to the millisecond (as the server writes times:
    // list cursors carry milliseconds).
    const createdAt = (n: number, g = 'g') =>
      `date_trunc('milliseconds', ${START} + (${g} - 1) * ${spanSeconds / n} * interval '1 second')`;
    // Three independent 32-bit hashes of the row number.
    const hashes = (g = 'g') =>
      `hashint8(${g})::int8 + 2147483648 as h1, hashint8(${g} + 1000000000000)::int8 + 2147483648 as h2,
       hashint8(-${g})::int8 + 2147483648 as h3`;
    const ms = (expression: string) => `date_trunc('milliseconds', ${expression})`;
    const stamp = (column: string) => `to_char(${column}, 'YYYYMMDDHH24MISSMS')`;

    // ---- The merchant, its ROOT user, channels and ledger accounts.
    let merchantId = 0;
    let userId = 0;
    /** Account ids by kind (platform and merchant) or by channel code (clearing). */
    const accounts = new Map<string, number>();
    const account = (kindOrChannel: string) => {
      const id = accounts.get(kindOrChannel);
      if (id === undefined) throw new Error(`No account ${kindOrChannel}.`);
      return String(id);
    };
    await step('merchant, user, channels, accounts', async () => {
      const merchant = await client.query<{ id: string }>(
        `insert into merchants (no, name, currency, timezone) values ($1, 'List bench', 'CNY', 'UTC') returning id`,
        [LISTS_MERCHANT_NO],
      );
      merchantId = Number(merchant.rows[0].id);
      const user = await client.query<{ id: string }>(
        `insert into users (merchant_id, name, email, password_hash, roles)
         values ($1, 'List bench', $2, $3, array['ROOT']) returning id`,
        [merchantId, LISTS_USER.email, await hashPassword(LISTS_USER.password)],
      );
      userId = Number(user.rows[0].id);
      const channelRow = (
        c: { code: string; feePpm: number },
        kind: string,
        cycle: string | null,
        fixed: number,
      ) =>
        `(${merchantId}, '${c.code}', '${kind}', 'CN', 'CNY', ${c.feePpm}, ${fixed}, 100, 5000000, ${cycle ? `'${cycle}'` : 'null'}, 'bench')`;
      await q(`
        insert into channels (merchant_id, code, kind, country, currency, fee_rate_ppm, fixed_fee_minor,
                              min_amount_minor, max_amount_minor, settlement_cycle, opened_by)
        values ${[
          ...COLLECTION_CHANNELS.map((c) => channelRow(c, 'collection', c.cycle, 0)),
          ...PAYOUT_CHANNELS.map((c) => channelRow(c, 'payout', null, c.fixedFeeMinor)),
        ].join(', ')}`);
      // The accounts the ledger would have created: the merchant's two, and the platform's in the shard
      // of this merchant (ledger.repository.ts: merchant id % 16, shard 0 without a suffix).
      const shard = merchantId % 16 === 0 ? '' : `#${merchantId % 16}`;
      const created = await q(`
        insert into ledger_accounts (code, kind, merchant_id, channel_code, currency) values
          ('merchant:${merchantId}:available', 'merchant_available', ${merchantId}, null, 'CNY'),
          ('merchant:${merchantId}:locked', 'merchant_locked', ${merchantId}, null, 'CNY'),
          ('operator_adjustments:CNY${shard}', 'operator_adjustments', null, null, 'CNY'),
          ('usdt_deposits:CNY${shard}', 'usdt_deposits', null, null, 'CNY'),
          ('fee_revenue:CNY${shard}', 'fee_revenue', null, null, 'CNY'),
          ${[...COLLECTION_CHANNELS, ...PAYOUT_CHANNELS]
            .map(
              (c) =>
                `('channel_clearing:${c.code}:CNY${shard}', 'channel_clearing', null, '${c.code}', 'CNY')`,
            )
            .join(', ')}
        returning id, kind, channel_code`);
      for (const row of created.rows as { id: string; kind: string; channel_code: string | null }[])
        accounts.set(row.channel_code ?? row.kind, Number(row.id));
      // Each percent of the rows -> its channel (by the channels' shares), with its clearing account.
      const percents = (channels: readonly { code: string; share: number }[]) => {
        let next = 0;
        return channels.flatMap((c) => Array.from({ length: c.share }, () => [next++, c.code] as const));
      };
      await q(`
        create temporary table bench_channel_pct (kind text, pct int, channel_id int8, code text, ppm int8,
                                                  fixed int8, cycle text, clearing int8, primary key (kind, pct))`);
      for (const [kind, channels] of [
        ['collection', COLLECTION_CHANNELS],
        ['payout', PAYOUT_CHANNELS],
      ] as const) {
        await q(`
          insert into bench_channel_pct
          select c.kind, p.pct, c.id, c.code, c.fee_rate_ppm, c.fixed_fee_minor, c.settlement_cycle, a.id
          from (values ${percents(channels)
            .map(([pct, code]) => `(${pct}, '${code}')`)
            .join(', ')}) as p(pct, code)
          join channels c on c.code = p.code and c.kind = '${kind}' and c.merchant_id = ${merchantId}
          join ledger_accounts a on a.kind = 'channel_clearing' and a.channel_code = c.code
                                and a.code = 'channel_clearing:' || c.code || ':CNY${shard}'`);
      }
      await q(`analyze bench_channel_pct`);
    });
    // ---- The rows, as SELECTs of the row numbers (the same rows whenever they are read).
    const collectionRows = `
      select x.*, ch.channel_id, ch.code as channel_code, ch.cycle,
             (x.amount * ch.ppm + 500000) / 1000000 + ch.fixed as fee,
             case when x.status = 'paid' and ch.cycle = 'T0'
                    then date_bin('10 minutes', x.paid_at, timestamptz '2000-01-01 00:00:00+00') + interval '10 minutes'
                  when x.status = 'paid' then date_trunc('day', x.paid_at) + interval '1 day' end as batch_at
      from (
        select g as id, c.*, 10000 + c.h2 % 490001 as amount, s.status,
               case when s.status = 'paid'
                    then ${ms(`least(c.created_at + (5 + c.h3 / 100 % 600) * interval '1 second', ${END})`)} end as paid_at,
               case s.status when 'closed' then c.created_at + interval '30 minutes'
                             when 'failed' then ${ms(`c.created_at + (30 + c.h3 / 100 % 300) * interval '1 second'`)}
               end as finished_at
        from generate_series(1::int8, ${rows}::int8) g
        cross join lateral (select ${createdAt(rows)} as created_at, ${hashes()}) c
        cross join lateral (select case
          when c.created_at > ${END} - interval '30 minutes'
            then case when c.h3 % 100 < 40 then 'paid' else 'to_be_paid' end
          when c.h3 % 100 < 80 then 'paid' when c.h3 % 100 < 95 then 'closed' else 'failed' end as status) s
      ) x
      join bench_channel_pct ch on ch.kind = 'collection' and ch.pct = x.h1 % 100`;

    const payoutRows = `
      select x.*, ch.channel_id, ch.code as channel_code, ch.clearing,
             (x.amount * ch.ppm + 500000) / 1000000 + ch.fixed as fee,
             case when x.status in ('processing', 'success', 'failed', 'refund_received')
                  then ${ms(`x.created_at + (2 + x.h3 / 100 % 28) * interval '1 second'`)} end as processing_at,
             case when x.status in ('success', 'failed', 'rejected', 'cancelled', 'refund_received')
                  then ${ms(`x.created_at + (60 + x.h3 / 100 % 1740) * interval '1 second'`)} end as finished_at,
             case when x.status = 'refund_received'
                  then ${ms(`x.created_at + (86400 + x.h2 / 1000 % 172800) * interval '1 second'`)} end as refunded_at
      from (
        select g as id, c.*, 1000 + c.h2 % 1999001 as amount, case
          when c.created_at > ${END} - interval '15 minutes'
            then case when c.h3 % 100 < 50 then 'pending' else 'processing' end
          when c.h3 % 100 < 88 then 'success' when c.h3 % 100 < 95 then 'failed'
          when c.h3 % 100 < 97 then 'rejected' when c.h3 % 100 < 98 then 'cancelled'
          when c.created_at < ${END} - interval '3 days' then 'refund_received' else 'success' end as status
        from generate_series(1::int8, ${rows}::int8) g
        cross join lateral (select ${createdAt(rows)} as created_at, ${hashes()}) c
      ) x
      join bench_channel_pct ch on ch.kind = 'payout' and ch.pct = x.h1 % 100`;

    const topUpRows = `
      select x.*, case when x.status <> 'pending_review'
                       then ${ms(`x.created_at + (300 + x.h3 / 100 % 3300) * interval '1 second'`)} end as reviewed_at,
             case when x.status = 'approved' then x.amount * 71234 / 100000000 end as credited
      from (
        select g as id, c.*, (100 + c.h2 % 49901) * 1000000 as amount,
               case when c.h1 % 100 < 70 then 'TRC20' else 'ERC20' end as network,
               case when c.created_at > ${END} - interval '1 hour' then 'pending_review'
                    when c.h3 % 100 < 85 then 'approved' else 'rejected' end as status
        from generate_series(1::int8, ${small}::int8) g
        cross join lateral (select ${createdAt(small)} as created_at, ${hashes()}) c
      ) x`;

    // ---- Settlement batches: per T+0 channel each 10-minute run, per T+1 channel each day, of the orders
    // paid before the run; a batch whose run is still to come is not made yet (its orders stay unsettled).
    await step('settlement batches (planned from the orders)', async () => {
      await q(`
        create temporary table bench_batches as
        select row_number() over (order by batch_at, channel_id)::int8 as id, channel_id, channel_code, cycle,
               batch_at, batch_at + interval '1 second' as created_at,
               batch_at + interval '1200 milliseconds' as settled_at,
               case when cycle = 'T0' then batch_at::date else (batch_at - interval '1 day')::date end as business_date,
               count(*)::int as orders, sum(amount)::int8 as gross, sum(fee)::int8 as fee
        from (${collectionRows}) c
        where batch_at is not null and batch_at + interval '1 second' <= ${END}
        group by channel_id, channel_code, cycle, batch_at`);
      await q(`
        alter table bench_batches add column settlement_no text;
        update bench_batches set settlement_no = 'S' || to_char(created_at, 'YYYYMMDDHH24MISS')
          || lpad(channel_id::text, 4, '0') || lpad((id % 10000)::text, 4, '0');
        create unique index on bench_batches (channel_id, batch_at);
        analyze bench_batches`);
      return count(`select count(*) as n from bench_batches`);
    });

    // ---- The ledger: the entries that move available, oldest first, with the running balance.
    let flows = 0;
    await step('fund flow plan (entries in time order)', async () => {
      await q(`
        create temporary table bench_linked as
        select 1 as src, b.id as src_id, b.settled_at as at, 'collection_settlement' as type, b.gross - b.fee as amount,
               ch.clearing as counter_account, -b.gross as counter_amount, ${account('fee_revenue')}::int8 as fee_account,
               b.fee as fee_amount, 'settlement' as ref_type, b.id::text as ref_id, b.settlement_no as ref_no,
               b.orders || ' orders, ' || b.business_date as note, 'settlement:' || b.id as key
        from bench_batches b
        join (select distinct channel_id, clearing from bench_channel_pct) ch on ch.channel_id = b.channel_id
        union all
        select 2, p.id, p.refunded_at, 'payout_refund', p.amount, p.clearing, -p.amount, null, null, 'payout', p.id::text,
               'P' || ${stamp('p.created_at')} || lpad((p.id % 1000000)::text, 6, '0'), 'Returned by the receiving bank',
               'payout:' || p.id || ':refund'
        from (${payoutRows}) p
        where p.status = 'refund_received'
        union all
        select 3, r.id, r.reviewed_at, 'recharge', r.credited, ${account('usdt_deposits')}, -r.credited, null, null,
               'recharge', r.id::text, 'R' || ${stamp('r.created_at')} || lpad((r.id % 1000000)::text, 6, '0'), null,
               'recharge:' || r.id || ':credit'
        from (${topUpRows}) r where r.status = 'approved'`);
      const linked = await count(`select count(*) as n from bench_linked`);
      const transfers = rows - linked;
      if (transfers < 1)
        throw new Error(`--rows ${rows} is too small: the orders alone make ${linked} entries.`);
      // The rest: operator transfers, in 55% of the time, out 45% (small amounts); the first is the opening.
      await q(`
        create temporary table bench_flows as
        select row_number() over w as id, s.*, sum(s.amount) over w as available_after
        from (
          select * from bench_linked
          union all
          select 4, i, ${createdAt(transfers, 'i')}, t.type, t.amount, ${account('operator_adjustments')}, -t.amount,
                 null, null, 'operator_action', i::text, 'OA' || lpad(i::text, 8, '0'),
                 case when i = 1 then 'Opening funds' else 'Bench transfer' end,
                 'operator_action:' || i || ':' || t.type
          from generate_series(1::int8, ${transfers}::int8) i
          cross join lateral (select hashint8(i)::int8 + 2147483648 as h) h
          cross join lateral (select case when i = 1 or h.h % 100 < 55 then 'transfer_in' else 'transfer_out' end as type,
                                     case when i = 1 then ${OPENING_MINOR}::int8
                                          when h.h % 100 < 55 then 1000 + h.h / 100 % 99001
                                          else -(100 + h.h / 100 % 4901) end as amount) t
        ) s
        window w as (order by s.at, s.src, s.src_id)`);
      flows = await count(`select count(*) as n from bench_flows`);
      return flows;
    });

    // Foreign keys and triggers off for the load (see the top of this file); checked after it.
    await q(`set session_replication_role = replica`);
    await step('journal_entries', () =>
      withoutIndexes('journal_entries', async () => {
        const r = await q(`
        insert into journal_entries (id, type, merchant_id, ref_type, ref_id, ref_no, note, idempotency_key, created_at)
        overriding system value
        select id, type, ${merchantId}, ref_type, ref_id, ref_no, note, key, at from bench_flows`);
        return r.rowCount ?? 0;
      }),
    );
    await step('postings', () =>
      withoutIndexes('postings', async () => {
        const r = await q(`
        insert into postings (entry_id, account_id, amount_minor)
        select f.id, l.account, l.amount from bench_flows f
        cross join lateral (values (${account('merchant_available')}, f.amount),
                                   (f.counter_account, f.counter_amount),
                                   (f.fee_account, f.fee_amount)) as l(account, amount)
        where l.amount is not null and l.amount <> 0`);
        return r.rowCount ?? 0;
      }),
    );
    await step('fund_flows', () =>
      withoutIndexes('fund_flows', async () => {
        const r = await q(`
        insert into fund_flows (id, merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                                entry_id, note, created_at)
        overriding system value
        select id, ${merchantId}, type, amount, available_after, ref_type, ref_id, ref_no, id, note, at
        from bench_flows`);
        return r.rowCount ?? 0;
      }),
    );
    await step('ledger_accounts (balances from the postings)', async () => {
      const r = await q(`
        update ledger_accounts a set balance_minor = s.total, updated_at = now()
        from (select account_id, sum(amount_minor) as total from postings group by account_id) s
        where s.account_id = a.id`);
      await q(`select setval(pg_get_serial_sequence('journal_entries', 'id'), ${flows + 1}, false)`);
      await q(`select setval(pg_get_serial_sequence('fund_flows', 'id'), ${flows + 1}, false)`);
      return r.rowCount ?? 0;
    });
    await step('fund_flow_hourly (from the fund flows)', async () => {
      const r = await q(`
        insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
        select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               sum(greatest(amount_minor, 0)), sum(greatest(-amount_minor, 0)), count(*)
        from fund_flows group by 1, 2, 3`);
      return r.rowCount ?? 0;
    });

    // ---- The orders (triggers and foreign keys on).
    await step('settlements', async () => {
      const r = await q(`
        insert into settlements (id, settlement_no, merchant_id, channel_id, channel_code, cycle, business_date,
                                 order_count, gross_minor, fee_minor, net_minor, currency, status, entry_id,
                                 created_at, settled_at)
        overriding system value
        select b.id, b.settlement_no, ${merchantId}, b.channel_id, b.channel_code, b.cycle, b.business_date,
               b.orders, b.gross, b.fee, b.gross - b.fee, 'CNY', 'settled', f.id, b.created_at, b.settled_at
        from bench_batches b join bench_flows f on f.src = 1 and f.src_id = b.id
        order by b.id`);
      await q(
        `select setval(pg_get_serial_sequence('settlements', 'id'), (select max(id) + 1 from settlements), false)`,
      );
      return r.rowCount ?? 0;
    });
    await q(`drop table bench_flows, bench_linked`);

    await step('collections', () =>
      withoutIndexes('collections', async () => {
        const r = await q(`
          insert into collections (id, merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                                   fee_minor, currency, status, settlement_status, settlement_id, notify_url,
                                   return_url, payer_name, expires_at, paid_at, finished_at, settled_at, created_at)
          overriding system value
          select c.id, ${merchantId}, c.channel_id, c.channel_code,
                 'C' || ${stamp('c.created_at')} || lpad((c.id % 1000000)::text, 6, '0'),
                 'ORD' || lpad(c.id::text, 12, '0'), c.amount, c.fee, 'CNY', c.status,
                 case when b.id is null then 'unsettled' else 'settled' end, b.id,
                 'https://shop.example/notify/collection', 'https://shop.example/return',
                 (array['Li Wei', 'Wang Fang', 'Zhang Min', null])[1 + c.h1 / 100 % 4],
                 c.created_at + interval '30 minutes', c.paid_at, c.finished_at, b.settled_at, c.created_at
          from (${collectionRows}) c
          left join bench_batches b on b.channel_id = c.channel_id and b.batch_at = c.batch_at`);
        await q(`select setval(pg_get_serial_sequence('collections', 'id'), ${rows + 1}, false)`);
        return r.rowCount ?? 0;
      }),
    );

    await step('payouts', () =>
      withoutIndexes('payouts', async () => {
        const r = await q(`
          insert into payouts (id, merchant_id, channel_id, channel_code, trade_no, out_trade_no, source,
                               created_by_user_id, amount_minor, fee_minor, currency, status, account_type,
                               bank_code, bank_name, branch_name, payee_name, account_no, notify_url,
                               failure_reason, processing_at, finished_at, refunded_at, created_at)
          overriding system value
          select p.id, ${merchantId}, p.channel_id, p.channel_code,
                 'P' || ${stamp('p.created_at')} || lpad((p.id % 1000000)::text, 6, '0'),
                 'PAY' || lpad(p.id::text, 12, '0'),
                 case when p.h1 / 100 % 10 = 0 then 'console' else 'gateway' end,
                 case when p.h1 / 100 % 10 = 0 then ${userId} end,
                 p.amount, p.fee, 'CNY', p.status,
                 case when p.h2 / 100 % 20 = 0 then 'company' else 'individual' end,
                 (array['ICBC', 'CCB', 'ABC', 'BOC', 'CMB'])[1 + p.h1 / 1000 % 5],
                 (array['中国工商银行', '中国建设银行', '中国农业银行', '中国银行', '招商银行'])[1 + p.h1 / 1000 % 5],
                 '上海分行', (array['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊'])[1 + p.h3 / 1000 % 6],
                 '6222' || lpad(((p.h2 * 7919 + p.id) % 1000000000000)::text, 12, '0'),
                 case when p.h1 / 100 % 10 = 0 then null else 'https://shop.example/notify/payout' end,
                 case p.status when 'failed' then 'Account name mismatch'
                               when 'rejected' then 'Rejected by risk control'
                               when 'refund_received' then 'Returned by the receiving bank' end,
                 p.processing_at, p.finished_at, p.refunded_at, p.created_at
          from (${payoutRows}) p`);
        await q(`select setval(pg_get_serial_sequence('payouts', 'id'), ${rows + 1}, false)`);
        return r.rowCount ?? 0;
      }),
    );

    await step('recharges (top-ups)', async () => {
      const r = await q(`
        insert into recharges (id, merchant_id, recharge_no, created_by_user_id, network, deposit_address,
                               amount_minor, currency, status, screenshot_key, screenshot_type, screenshot_bytes,
                               received_minor, rate, usd_rate, credited_minor, credited_usd_minor, reviewed_by,
                               reviewed_at, review_reason, created_at)
        overriding system value
        select r.id, ${merchantId}, 'R' || ${stamp('r.created_at')} || lpad((r.id % 1000000)::text, 6, '0'),
               ${userId}, r.network,
               case r.network when 'TRC20' then 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
                              else '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' end,
               r.amount, 'CNY', r.status, 'recharges/${merchantId}/bench-' || r.id || '.png', 'image/png',
               120000 + r.h1 % 50000,
               case when r.status = 'approved' then r.amount end,
               case when r.status = 'approved' then '7.1234' end,
               case when r.status = 'approved' then '1' end,
               r.credited,
               case when r.status = 'approved' then r.amount / 10000 end,
               case when r.status <> 'pending_review' then 'ops-bench' end, r.reviewed_at,
               case r.status when 'approved' then 'Received on chain'
                             when 'rejected' then 'The screenshot shows no transfer' end,
               r.created_at
        from (${topUpRows}) r`);
      await q(`select setval(pg_get_serial_sequence('recharges', 'id'), ${small + 1}, false)`);
      return r.rowCount ?? 0;
    });

    await step('withdrawals', async () => {
      const r = await q(`
        insert into withdrawals (id, merchant_id, withdrawal_no, created_by_user_id, status, network, address,
                                 amount_usdt_minor, fee_usdt_minor, is_free, rate, local_currency,
                                 amount_local_minor, fee_local_minor, tx_hash, reject_reason, approved_at,
                                 approved_by, paid_at, paid_by, rejected_at, rejected_by, created_at)
        overriding system value
        select w.id, ${merchantId}, 'W' || ${stamp('w.created_at')} || lpad((w.id % 1000000)::text, 6, '0'),
               ${userId}, w.status, w.network,
               case w.network when 'TRC20' then 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC'
                              else '0x8894E0a0c962CB723c1976a4421c95949bE2D4E3' end,
               w.amount, w.fee, w.fee = 0, '7.1234', 'CNY', w.amount * 71234 / 100000000,
               w.fee * 71234 / 100000000,
               case when w.status = 'paid' then md5('bench-w-' || w.id) || md5('bench-h-' || w.id) end,
               case when w.status = 'rejected' then 'The address failed the risk check' end,
               case when w.status in ('approved', 'paid') then w.approved_at end,
               case when w.status in ('approved', 'paid') then 'ops-bench' end,
               case when w.status = 'paid' then w.paid_at end,
               case when w.status = 'paid' then 'ops-bench' end,
               case when w.status = 'rejected' then w.approved_at end,
               case when w.status = 'rejected' then 'ops-bench' end,
               w.created_at
        from (
          select x.*, ${ms(`x.created_at + (600 + x.h3 / 100 % 3000) * interval '1 second'`)} as approved_at,
                 ${ms(`x.created_at + (4200 + x.h3 / 100 % 1800) * interval '1 second'`)} as paid_at
          from (
            select g as id, c.*, (50 + c.h2 % 19951) * 1000000 as amount,
                   case when c.h1 / 100 % 10 = 0 then 0::int8 else 2000000::int8 end as fee,
                   case when c.h1 % 100 < 70 then 'TRC20' else 'ERC20' end as network,
                   case when c.created_at > ${END} - interval '2 hours'
                          then case when c.h3 % 100 < 60 then 'pending_review' else 'approved' end
                        when c.h3 % 100 < 85 then 'paid' else 'rejected' end as status
            from generate_series(1::int8, ${small}::int8) g
            cross join lateral (select ${createdAt(small)} as created_at, ${hashes()}) c
          ) x
        ) w`);
      await q(`select setval(pg_get_serial_sequence('withdrawals', 'id'), ${small + 1}, false)`);
      return r.rowCount ?? 0;
    });

    // The lists' sums of the orders: migration 0008's own backfill of the orders already there (what its
    // triggers would have added up row by row).
    await step('order_hourly (from the orders)', async () => {
      const r = await q(`
        insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
        select 'collection', merchant_id, status, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               1 + id % 16, count(*), sum(amount_minor), sum(fee_minor)
        from collections group by 1, 2, 3, 4, 5
        union all
        select 'payout', merchant_id, status, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               1 + id % 16, count(*), sum(amount_minor), sum(fee_minor)
        from payouts group by 1, 2, 3, 4, 5`);
      return r.rowCount ?? 0;
    });
    // The sums of top-ups, withdrawals and settlements: migration 0015's own backfill.
    await step('list_hourly (from top-ups, withdrawals and settlements)', async () => {
      const r = await q(`
        insert into list_hourly (list, merchant_id, status, facet, hour, rows, a, b, c)
        select 'recharge', merchant_id, status, network,
               date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               count(*), sum(amount_minor), sum(coalesce(credited_minor, 0)), 0
        from recharges group by 2, 3, 4, 5
        union all
        select 'withdrawal', merchant_id, status, network,
               date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               count(*), sum(amount_usdt_minor), sum(fee_usdt_minor), sum(amount_local_minor + fee_local_minor)
        from withdrawals group by 2, 3, 4, 5
        union all
        select 'settlement', merchant_id, status, channel_code,
               date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
               count(*), sum(gross_minor), sum(fee_minor), sum(net_minor)
        from settlements group by 2, 3, 4, 5`);
      return r.rowCount ?? 0;
    });
    // Their days: migration 0019's own backfill.
    await step('list_daily (from list_hourly)', async () => {
      const r = await q(`
        insert into list_daily (list, merchant_id, status, facet, day, rows, a, b, c)
        select list, merchant_id, status, facet, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
               sum(rows), sum(a), sum(b), sum(c)
        from list_hourly group by 1, 2, 3, 4, 5`);
      return r.rowCount ?? 0;
    });
    await q(`reset session_replication_role`);
    await step('checks (what keys and triggers would check)', () => checkSeed(client, merchantId));

    // Autovacuum would otherwise visit these tables in the middle of the measurements.
    await step('vacuum analyze', async () => {
      await q(`vacuum (analyze) collections, payouts, settlements, recharges, withdrawals, journal_entries,
               postings, fund_flows, fund_flow_hourly, order_hourly, list_hourly, list_daily, ledger_accounts`);
    });
    console.log(
      `  ${'seeded in'.padEnd(62)}${`${fixed((performance.now() - started) / 1000, 1)} s`.padStart(10)}`,
    );
  } finally {
    await client.end();
  }
}

/**
 * What the load skipped, checked on the result: every order's channel and settlement exist, a settled order
 * is in a settled batch of its own channel, each entry has its fund flow row, the accounts are the sums of
 * their postings and sum to zero, available is the last fund flow's available_after, and the rollups equal
 * the rows they sum. Throws listing every difference.
 */
async function checkSeed(client: pg.Client, merchantId: number): Promise<void> {
  const problems: string[] = [];
  const check = async (what: string, text: string) => {
    const { rows } = await client.query<{ bad: string }>(text);
    const bad = Number(rows[0]?.bad ?? 0);
    if (bad !== 0) problems.push(`${what}: ${bad}`);
  };
  await check(
    'orders without their channel or settlement',
    `select (select count(*) from collections o left join channels c on c.id = o.channel_id and c.code = o.channel_code
              left join settlements s on s.id = o.settlement_id
             where c.id is null or (o.settlement_id is not null and (s.id is null or s.channel_id <> o.channel_id
                   or s.status <> 'settled' or o.paid_at >= s.created_at)))
          + (select count(*) from payouts o left join channels c on c.id = o.channel_id and c.code = o.channel_code
             where c.id is null) as bad`,
  );
  await check(
    'settlements whose orders do not add up',
    `select count(*) as bad from settlements s
     left join (select settlement_id, count(*) as n, sum(amount_minor) as gross, sum(fee_minor) as fee
                from collections where settlement_id is not null group by settlement_id) o on o.settlement_id = s.id
     where o.n is distinct from s.order_count or o.gross is distinct from s.gross_minor
        or o.fee is distinct from s.fee_minor`,
  );
  // Each entry's postings balance by construction (bench_flows gives every line of an entry); ledger:verify
  // checks them one by one on a small seed. Here, the cheap totals: one fund flow row per entry, its own.
  await check(
    'journal entries without their fund flow row',
    `select (select count(*) from journal_entries) - (select count(*) from fund_flows f
                                                       join journal_entries e on e.id = f.entry_id) as bad`,
  );
  await check(
    'accounts that are not the sum of their postings, or a non-zero trial balance',
    `select count(*) + (select abs(sum(balance_minor)) from ledger_accounts) as bad from ledger_accounts a
     left join (select account_id, sum(amount_minor) as total from postings group by account_id) s
       on s.account_id = a.id
     where a.balance_minor <> coalesce(s.total, 0)`,
  );
  await check(
    "available that is not the last entry's available_after",
    `select count(*) as bad from ledger_accounts a
     where a.kind = 'merchant_available' and a.merchant_id = ${merchantId}
       and a.balance_minor <> (select available_after_minor from fund_flows where merchant_id = ${merchantId}
                               order by created_at desc nulls last, id desc nulls last limit 1)`,
  );
  await check(
    'rollups that differ from the rows',
    `select (select count(*) from (
               select kind, status, sum(orders) as n, sum(amount_minor) as amount, sum(fee_minor) as fee
               from order_hourly group by 1, 2
               except all
               (select 'collection', status, count(*), sum(amount_minor), sum(fee_minor) from collections group by 2
                union all
                select 'payout', status, count(*), sum(amount_minor), sum(fee_minor) from payouts group by 2)) x)
          + (select count(*) from (
               select type, sum(in_minor), sum(out_minor), sum(entries) from fund_flow_hourly group by 1
               except all
               select type, sum(greatest(amount_minor, 0)), sum(greatest(-amount_minor, 0)), count(*)
               from fund_flows group by 1) y)
          + (select count(*) from (
               select list, status, facet, sum(rows), sum(a), sum(b), sum(c) from list_hourly group by 1, 2, 3
               except all
               (select 'recharge', status, network, count(*), sum(amount_minor), sum(coalesce(credited_minor, 0)), 0
                from recharges group by 2, 3
                union all
                select 'withdrawal', status, network, count(*), sum(amount_usdt_minor), sum(fee_usdt_minor),
                       sum(amount_local_minor + fee_local_minor)
                from withdrawals group by 2, 3
                union all
                select 'settlement', status, channel_code, count(*), sum(gross_minor), sum(fee_minor), sum(net_minor)
                from settlements group by 2, 3)) z) as bad`,
  );
  if (problems.length > 0) throw new Error(`The seed is not consistent:\n  ${problems.join('\n  ')}`);
}
