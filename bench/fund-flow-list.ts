import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { queryRows } from '../apps/server/src/db/client.ts';
import { merchants, users } from '../apps/server/src/db/schema/index.ts';
import { hashPassword } from '../apps/server/src/lib/password.ts';
import { encodeCursor } from '../apps/server/src/lib/cursor.ts';
import { fundFlowsRepository } from '../apps/server/src/modules/ledger/fund-flows.repository.ts';
import { fundFlowsList } from '../apps/server/src/modules/ledger/index.ts';
import { createBenchDatabase, fixed, ms, time, timeRounds } from './lib.ts';

// The first page of one merchant's fund flow filtered by type, at 1,000,000 entries, against the bare SQL
// index query returning the same rows (target <= 3x); and page 500 against page 1.

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const PER_PAGE = 20;
const TYPE = 'transfer_in';

export async function runFundFlowList(): Promise<void> {
  if (ENTRIES / 5 < 500 * PER_PAGE)
    throw new Error('BENCH_ENTRIES must be at least 50000 to reach page 500.');
  const bench = await createBenchDatabase('flows');
  const bare = new pg.Pool({ connectionString: bench.url, max: 2 });
  try {
    const { db } = bench.database;
    console.log(
      `fund flow list: database ${bench.name}, ${ENTRIES.toLocaleString('en')} entries for one merchant`,
    );
    const [merchant] = await db
      .insert(merchants)
      .values({ no: 'MB1', name: 'Bench', currency: 'CNY' })
      .returning();
    const password = 'bench-password-1';
    await db.insert(users).values({
      merchantId: merchant.id,
      name: 'Bench',
      email: 'bench@bench.test',
      passwordHash: await hashPassword(password),
      roles: ['ROOT'],
    });

    // Bulk load: five posted types in turn, two seconds apart, each a journal entry with its two postings
    // (available and the counterpart of DESIGN 3) and its fund flow with the running balance after it, the
    // accounts and the hourly rollup, as the ledger would have written them one by one. The balance check
    // trigger is skipped for the load (session_replication_role): each entry is a pair summing to zero.
    const started = performance.now();
    const counterpart = sql`case t.type when 'recharge' then 'usdt_deposits:CNY'
      when 'transfer_in' then 'operator_adjustments:CNY' when 'transfer_out' then 'operator_adjustments:CNY'
      else 'channel_clearing:bench:CNY' end`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into ledger_accounts (code, kind, merchant_id, channel_code, currency) values
          (${`merchant:${merchant.id}:available`}, 'merchant_available', ${merchant.id}, null, 'CNY'),
          (${`merchant:${merchant.id}:locked`}, 'merchant_locked', ${merchant.id}, null, 'CNY'),
          ('operator_adjustments:CNY', 'operator_adjustments', null, null, 'CNY'),
          ('usdt_deposits:CNY', 'usdt_deposits', null, null, 'CNY'),
          ('channel_clearing:bench:CNY', 'channel_clearing', null, 'bench', 'CNY')`);
      await tx.execute(sql`
        create temporary table bench_rows on commit drop as
        select g,
               (array['collection_settlement','recharge','transfer_in','transfer_out','payout_refund'])[1 + g % 5] as type,
               case when g % 5 = 3 then -(1 + g % 500) else 1000 + g % 9000 end::bigint as amount,
               timestamptz '2025-06-01 00:00:00+00' + g * interval '2 seconds' as at
        from generate_series(1, ${ENTRIES}) g`);
      await tx.execute(sql`
        insert into journal_entries (id, type, merchant_id, ref_type, ref_id, ref_no, idempotency_key, created_at)
        overriding system value
        select g, type, ${merchant.id}, 'bench', g::text, 'R' || g, 'bench:' || g, at from bench_rows`);
      await tx.execute(sql`
        insert into postings (entry_id, account_id, amount_minor)
        select t.g, a.id, t.amount from bench_rows t
        join ledger_accounts a on a.code = ${`merchant:${merchant.id}:available`}
        union all
        select t.g, a.id, -t.amount from bench_rows t join ledger_accounts a on a.code = ${counterpart}`);
      await tx.execute(sql`
        insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                                entry_id, created_at)
        select ${merchant.id}, t.type, t.amount, sum(t.amount) over (order by t.g), 'bench', t.g::text, 'R' || t.g,
               t.g, t.at
        from bench_rows t order by t.g`);
      await tx.execute(sql`
        update ledger_accounts a set balance_minor = s.total
        from (select account_id, sum(amount_minor) as total from postings group by account_id) s
        where s.account_id = a.id`);
      await tx.execute(sql`
        select setval(pg_get_serial_sequence('journal_entries', 'id'), ${ENTRIES + 1}, false)`);
    });
    await db.execute(sql`
      insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
      select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
             sum(greatest(amount_minor, 0)), sum(greatest(-amount_minor, 0)), count(*)
      from fund_flows group by 1, 2, 3`);
    await db.execute(sql`vacuum analyze`);
    console.log(`loaded in ${fixed((performance.now() - started) / 1000, 1)} s`);

    const funds = {
      list: (v: typeof viewer, q: Parameters<typeof fundFlowsList.read>[2]) => fundFlowsList.read(db, v, q),
    };
    const viewer = {
      merchantId: merchant.id,
      currency: 'CNY' as const,
      timeZone: 'UTC',
      mode: 'live' as const,
    };
    const query = (page: number, cursor?: string) =>
      ({ page, per_page: PER_PAGE, type: TYPE, cursor }) as const;
    const filter = { merchantId: merchant.id, type: TYPE };

    const bareSql = {
      name: 'bench-bare-page',
      text: `select * from fund_flows where merchant_id = $1 and type = $2
             order by created_at desc nulls last, id desc nulls last limit $3 offset $4`,
    };
    const bareQuery = (offset: number) =>
      bare.query({ ...bareSql, values: [merchant.id, TYPE, PER_PAGE, offset] });

    // The same rows, or the comparison means nothing.
    const ours = await funds.list(viewer, query(1));
    const theirs = await bareQuery(0);
    if (ours.data.map((r) => r.id).join() !== theirs.rows.map((r: { id: string }) => Number(r.id)).join()) {
      throw new Error('The API and the bare query answered different rows.');
    }
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      db,
      sql`explain select * from fund_flows where merchant_id = ${merchant.id} and type = ${TYPE}
          order by created_at desc nulls last, id desc nulls last limit 21`,
    );

    // An HTTP client with a session, as the console is.
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`,
        DATA_DIR: '/tmp/paydesk-bench',
      }),
      database: bench.database,
      logger: false,
    });
    await app.ready();
    const csrf = await app.inject({ method: 'GET', url: '/api/csrf-cookie' });
    const xsrf = csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, accept: 'application/json' },
      payload: { email: 'bench@bench.test', password },
    });
    const session = login.cookies.find((c) => c.name === 'paydesk_session')!.value;
    const http = (url: string) =>
      app.inject({
        method: 'GET',
        url,
        headers: { cookie: `paydesk_session=${session}`, accept: 'application/json', 'x-timezone': 'UTC' },
      });
    const httpFirst = await http(`/api/merchant/fund-flows?type=${TYPE}&per_page=${PER_PAGE}`);
    if (httpFirst.statusCode !== 200)
      throw new Error(`HTTP list answered ${httpFirst.statusCode}: ${httpFirst.body}`);

    // In the same rounds, so the HTTP figure and its baseline see the same machine.
    const [bare1, page, totals, service1, http1] = await timeRounds(
      [
        () => bareQuery(0),
        () => fundFlowsList.page(db, filter, PER_PAGE + 1, { offset: 0 }),
        () => fundFlowsRepository.totals(db, filter),
        () => funds.list(viewer, query(1)),
        () => http(`/api/merchant/fund-flows?type=${TYPE}&per_page=${PER_PAGE}`),
      ],
      500,
    );
    const t = { bare1, page, totals, service1, http1 };
    // Page 500: by number (skipping 9,980 rows), and by the cursor of page 499's last row.
    const offset500 = 499 * PER_PAGE;
    const before500 = (await bareQuery(offset500 - 1)).rows[0] as { id: string; created_at: Date | string };
    const cursor = encodeCursor({ createdAt: new Date(before500.created_at), id: Number(before500.id) });
    const viaCursor = await funds.list(viewer, query(500, cursor));
    const viaOffset = await funds.list(viewer, query(500));
    if (viaCursor.data.map((r) => r.id).join() !== viaOffset.data.map((r) => r.id).join()) {
      throw new Error('Page 500 by cursor and by number differ.');
    }
    const deep = {
      bare500: await time(() => bareQuery(offset500), 100, 10),
      service500offset: await time(() => funds.list(viewer, query(500)), 100, 10),
      service500cursor: await time(() => funds.list(viewer, query(500, cursor))),
    };
    await app.close();

    const row = (label: string, timing: { median: number; p95: number }, base?: number) =>
      console.log(
        `${label.padEnd(72)}${ms(timing.median).padStart(11)} median ${ms(timing.p95).padStart(11)} p95${base ? `   ${fixed(timing.median / base)}x` : ''}`,
      );
    const base = t.bare1.median;
    const scan = plan.map((line) => line['QUERY PLAN'].trim()).find((line) => /Scan/.test(line));
    console.log(`\nplan of the page query: ${scan}`);
    console.log(
      `first page, type=${TYPE} (${Math.round(ENTRIES / 5).toLocaleString('en')} matching), ${PER_PAGE} rows:`,
    );
    row('bare SQL index query (node-postgres, prepared)', t.bare1);
    row('our page query (repository, drizzle)', t.page, base);
    row('our sums + total of the whole filter (hourly rollup)', t.totals, base);
    row('service: page + sums + total   [target <= 2x]', t.service1, base);
    row('HTTP GET /api/merchant/fund-flows (session, auth, JSON)   [target <= 3x]', t.http1, base);
    console.log('page 500 vs page 1:');
    row('bare SQL, offset 9,980', deep.bare500, base);
    row('service, page=500 by number (offset)', deep.service500offset, t.service1.median);
    row(
      'service, page=500 by cursor (keyset)   [vs service page 1]',
      deep.service500cursor,
      t.service1.median,
    );
  } finally {
    await bare.end();
    await bench.drop();
  }
}
