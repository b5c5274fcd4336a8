import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { sweepExpired } from '../../src/jobs/housekeeping.ts';
import { createGatewayMerchant } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

// DESIGN 8: "Lists are ordered newest first on an index that serves that order." Each list page query the
// console's list calls make, with each single filter, is caught as the server sends it and EXPLAINed on
// PostgreSQL with sequential scans priced out (the tables here are small): the plan must name the index
// that serves the filter, and need no sort for the newest-first order.

/** A statement as sent, with the settings of the connection it went out on (pg's `options`). */
type Sent = { text: string; values: unknown[]; settings: string | undefined };

let ctx: TestContext;
let client: TestClient;
let inspector: pg.Client;

/** The SQL the server sends while answering `url` (node-postgres), caught on its way out. */
async function queriesOf(url: string): Promise<Sent[]> {
  const sent: Sent[] = [];
  const original = pg.Client.prototype.query;
  const patched = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const settings = (this as unknown as { connectionParameters: { options?: string } }).connectionParameters
      .options;
    if (typeof config === 'string') sent.push({ text: config, values: values ?? [], settings });
    else if (config && typeof config.text === 'string')
      sent.push({ text: config.text, values: config.values ?? values ?? [], settings });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = patched as typeof original;
  try {
    const response = await client.get(url);
    expect(response.statusCode, response.body).toBe(200);
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

/** The plan of the page query (the one with ORDER BY ... LIMIT) on `table` that answering `url` sent. */
async function pagePlan(url: string, table: string): Promise<string> {
  const page = (await queriesOf(url)).filter(
    (q) => q.text.includes(`from "${table}"`) && /order by/i.test(q.text) && /limit/i.test(q.text),
  );
  expect(page, `one page query on ${table} for ${url}`).toHaveLength(1);
  await inspector.query('begin');
  try {
    await inspector.query('set local enable_seqscan = off');
    const { rows } = await inspector.query<{ 'QUERY PLAN': string }>(
      `explain ${page[0].text}`,
      page[0].values,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await inspector.query('rollback');
  }
}

describe.runIf(testDatabaseKind() === 'postgres')('list queries use their indexes', () => {
  beforeAll(async () => {
    ctx = await createTestApp();
    const { merchant, users, channel } = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      roles: ['ROOT'],
    });
    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
    // A small table the planner knows: 20,000 rows of each kind over two merchants, analysed.
    const owner = sql`case when g % 2 = 0 then ${merchant.id}::bigint else ${other.merchant.id}::bigint end`;
    const at = sql`now() - g * interval '1 minute'`;
    await ctx.database.db.execute(sql`
      insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                               fee_minor, currency, expires_at, status, created_at)
      select ${owner}, ${channel!.id}::bigint, 'sandbox', 'C' || lpad(g::text, 23, '0'), 'ORDER-' || g, 1000 + g, 15,
             'CNY', ${at}, (array['to_be_paid', 'paid', 'closed', 'failed'])[1 + g % 4], ${at}
      from generate_series(1, 20000) g`);
    await ctx.database.db.execute(sql`
      insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                           fee_minor, currency, account_type, payee_name, account_no, status, created_at)
      select ${owner}, ${channel!.id}::bigint, 'sandbox-pay', 'P' || lpad(g::text, 23, '0'), 'PAY-' || g, 'gateway',
             1000 + g, 60, 'CNY', 'individual', 'Payee', '6222020200112233',
             (array['pending', 'processing', 'success', 'failed', 'rejected'])[1 + g % 5], ${at}
      from generate_series(1, 20000) g`);
    await ctx.database.db.execute(sql`
      insert into settlements (settlement_no, merchant_id, channel_id, channel_code, cycle, business_date,
                               order_count, gross_minor, fee_minor, net_minor, currency, created_at)
      select 'S' || lpad(g::text, 20, '0'), ${owner}, ${channel!.id}, 'sandbox', 'T1',
             (${at})::date, 3, 3000, 45, 2955, 'CNY', ${at}
      from generate_series(1, 20000) g`);
    // Fund flows as the ledger writes them (an entry each), loaded in bulk without the balance triggers.
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into journal_entries (id, type, merchant_id, ref_type, ref_id, ref_no, idempotency_key, created_at)
        overriding system value
        select 1000000 + g, 'transfer_in', ${owner}, 'test', g::text, 'P' || lpad(g::text, 23, '0'),
               'plans:' || g, ${at}
        from generate_series(1, 20000) g`);
      await tx.execute(sql`
        insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                                entry_id, created_at)
        select ${owner}, (array['collection_settlement', 'recharge', 'transfer_in', 'payout_deduction'])[1 + g % 4],
               100, 100 * g, 'test', g::text, 'P' || lpad(g::text, 23, '0'), 1000000 + g, ${at}
        from generate_series(1, 20000) g`);
    });
    await ctx.database.db.execute(sql`
      insert into recharges (merchant_id, recharge_no, network, deposit_address, amount_minor, currency,
                             screenshot_key, screenshot_type, screenshot_bytes, status, reviewed_by, reviewed_at,
                             review_reason, created_at)
      select ${owner}, 'R' || lpad(g::text, 23, '0'), 'TRC20', 'TAddress', 1000000 + g, 'USDT',
             'recharges/x/' || g || '.png', 'image/png', 1000,
             (array['pending_review', 'rejected', 'rejected', 'rejected'])[1 + g % 4], 'ops', ${at}, 'test', ${at}
      from generate_series(1, 20000) g`);
    await ctx.database.db.execute(sql`
      insert into withdrawals (merchant_id, withdrawal_no, network, address, amount_usdt_minor, fee_usdt_minor, rate,
                               local_currency, amount_local_minor, fee_local_minor, status, created_at)
      select ${owner}, 'W' || lpad(g::text, 23, '0'), 'TRC20', 'TAddress', 1000000 + g, 1000000, '7.1', 'CNY',
             710 + g, 710, (array['pending_review', 'approved'])[1 + g % 2], ${at}
      from generate_series(1, 20000) g`);
    await ctx.database.db.execute(sql`
      insert into export_tasks (merchant_id, user_id, kind, format, filters, time_zone, locale, max_row_id, status,
                                created_at)
      select ${owner}, ${users.ROOT.id}::bigint, 'payouts', 'csv', '{}'::jsonb, 'UTC', 'en', 0, 'success', ${at}
      from generate_series(1, 20000) g`);
    // Rollups of a merchant with years of history (the sums' plans below): 40,000 hours of orders, fund
    // flows and top-ups each, and 40,000 days of top-ups.
    const hour = sql`date_trunc('hour', now()) - g * interval '1 hour'`;
    await ctx.database.db.execute(sql`
      insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
      select (array['collection', 'payout'])[1 + g % 2], ${other.merchant.id},
             (array[array['paid', 'failed', 'pending', 'closed'], array['success', 'failed', 'pending', 'rejected']])[1 + g % 2][s],
             ${hour}, 1 + g % 16, 1, 100, 1
      from generate_series(1, 40000) g cross join generate_series(1, 4) s
      on conflict do nothing`);
    await ctx.database.db.execute(sql`
      insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
      select ${other.merchant.id}, 'transfer_in', ${hour}, 100, 0, 1 from generate_series(1, 40000) g`);
    await ctx.database.db.execute(sql`
      insert into list_hourly (list, merchant_id, status, facet, hour, rows, a, b, c)
      select 'recharge', ${other.merchant.id}, 'approved', 'TRC20', ${hour}, 1, 100, 100, 0
      from generate_series(1, 40000) g`);
    await ctx.database.db.execute(sql`
      insert into list_daily (list, merchant_id, status, facet, day, rows, a, b, c)
      select 'recharge', ${other.merchant.id}, 'approved', 'TRC20', date_trunc('day', now()) - g * interval '1 day',
             1, 100, 100, 0
      from generate_series(1, 40000) g`);
    // As the housekeeping job keeps them: the hours over folded into slot 0, the days before closed.
    await sweepExpired(ctx.database.db);
    // Vacuumed as autovacuum keeps rows days old: their pages all-visible, so an index alone can answer.
    await ctx.database.db.execute(
      sql`vacuum analyze collections, payouts, settlements, fund_flows, recharges, withdrawals, export_tasks,
                         order_hourly, order_minutely, fund_flow_hourly, fund_flow_minutely, list_hourly,
                         list_daily`,
    );
    client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
    inspector = new pg.Client({ connectionString: ctx.database.url });
    await inspector.connect();
  });
  afterAll(async () => {
    await inspector?.end();
    await ctx?.close();
  });

  const cases: [string, string, string, boolean][] = [
    // [list call, table, the index its page query must use, whether the newest-first order needs no sort]
    ['/api/merchant/collections', 'collections', 'collections_merchant_created_idx', true],
    ['/api/merchant/collections?status=paid', 'collections', 'collections_merchant_status_created_idx', true],
    [
      '/api/merchant/collections?trade_no=C20261123000000000000001',
      'collections',
      'collections_trade_no_unique',
      false,
    ],
    [
      '/api/merchant/collections?out_trade_no=ORDER-1',
      'collections',
      'collections_merchant_out_trade_no_key',
      false,
    ],
    [
      '/api/merchant/collections?start_time=2026-11-01&end_time=2026-11-20',
      'collections',
      'collections_merchant_created_idx',
      true,
    ],
    ['/api/merchant/payouts', 'payouts', 'payouts_merchant_created_idx', true],
    ['/api/merchant/payouts?status=failed', 'payouts', 'payouts_merchant_status_created_idx', true],
    ['/api/merchant/payouts?trade_no=P20261123000000000000001', 'payouts', 'payouts_trade_no_unique', false],
    ['/api/merchant/payouts?out_trade_no=PAY-1', 'payouts', 'payouts_merchant_out_trade_no_key', false],
    [
      '/api/merchant/payouts?start_time=2026-11-01&end_time=2026-11-20',
      'payouts',
      'payouts_merchant_created_idx',
      true,
    ],
    ['/api/merchant/settlements', 'settlements', 'settlements_merchant_created_idx', true],
    [
      '/api/merchant/settlements?settlement_no=S20261123000000000001',
      'settlements',
      'settlements_settlement_no_unique',
      false,
    ],
    [
      '/api/merchant/settlements?start_time=2026-11-01&end_time=2026-11-20',
      'settlements',
      'settlements_merchant_created_idx',
      true,
    ],
    ['/api/merchant/recharges', 'recharges', 'recharges_merchant_created_idx', true],
    [
      '/api/merchant/recharges?status=pending_review',
      'recharges',
      'recharges_merchant_status_created_idx',
      true,
    ],
    [
      '/api/merchant/recharges?start_time=2026-11-01&end_time=2026-11-20',
      'recharges',
      'recharges_merchant_created_idx',
      true,
    ],
    ['/api/merchant/withdrawals', 'withdrawals', 'withdrawals_merchant_created_idx', true],
    [
      '/api/merchant/withdrawals?status=approved',
      'withdrawals',
      'withdrawals_merchant_status_created_idx',
      true,
    ],
    [
      '/api/merchant/withdrawals?start_time=2026-11-01&end_time=2026-11-20',
      'withdrawals',
      'withdrawals_merchant_created_idx',
      true,
    ],
    ['/api/merchant/exports', 'export_tasks', 'export_tasks_merchant_idx', true],
    ['/api/merchant/fund-flows', 'fund_flows', 'fund_flows_merchant_time_idx', true],
    ['/api/merchant/fund-flows?type=recharge', 'fund_flows', 'fund_flows_merchant_type_time_idx', true],
    [
      '/api/merchant/fund-flows?ref_no=P20261123000000000000001',
      'fund_flows',
      'fund_flows_merchant_ref_no_idx',
      false,
    ],
    [
      '/api/merchant/fund-flows?start_time=2026-11-01&end_time=2026-11-20',
      'fund_flows',
      'fund_flows_merchant_time_idx',
      true,
    ],
  ];
  it.each(cases)('%s reads %s through its index', async (url, table, index, ordered) => {
    const plan = await pagePlan(url, table);
    expect(plan).toContain(index);
    if (ordered) expect(plan).not.toMatch(/\bSort\b/);
  });

  /** The list's one sums statement (meta.sums) as the server sent it answering `url`. */
  async function sumsOf(url: string): Promise<Sent> {
    const sums = (await queriesOf(url)).filter((q) => q.text.includes('coalesce(sum('));
    expect(sums, `one sums query for ${url}`).toHaveLength(1);
    return sums[0];
  }

  /**
   * EXPLAIN of the plan PostgreSQL makes for a statement without its values (a generic plan), with the
   * settings of the connection it went out on.
   */
  async function genericPlanOf(sent: Sent): Promise<string> {
    const literal = (value: unknown) =>
      typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
    const settings = [...(sent.settings ?? '').matchAll(/-c (\w+)=(\S+)/g)].map(([, name, value]) => ({
      name: name!,
      value: value!,
    }));
    await inspector.query(`prepare sums_probe as ${sent.text}`);
    try {
      await inspector.query('set plan_cache_mode = force_generic_plan');
      for (const { name, value } of settings) await inspector.query(`set ${name} = ${literal(value)}`);
      const { rows } = await inspector.query<{ 'QUERY PLAN': string }>(
        `explain execute sums_probe(${sent.values.map(literal).join(', ')})`,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await inspector.query('reset all');
      await inspector.query('deallocate sums_probe');
    }
  }

  // The sums a list answers with (meta.sums) are a named statement per filter shape, run on connections
  // where PostgreSQL always uses its plan made without values (withKeptPlans: a plan for each run's values
  // cost more to make than to run). That plan must read the rollups by index: with a time range open on
  // one side it expected a third of the rollup and read all of it.
  const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const minutes = `start_time=${encodeURIComponent(`${day} 13:17`)}&end_time=${encodeURIComponent(`${day} 16:42:59`)}`;
  const sumsCases: [string, string][] = [
    ['/api/merchant/collections', 'order_hourly'],
    ['/api/merchant/payouts?status=success', 'order_hourly'],
    ['/api/merchant/collections?status=paid', 'order_hourly'],
    [`/api/merchant/payouts?${minutes}`, 'order_hourly'],
    ['/api/merchant/fund-flows', 'fund_flow_hourly'],
    ['/api/merchant/fund-flows?type=transfer_in', 'fund_flow_hourly'],
    [`/api/merchant/fund-flows?${minutes}`, 'fund_flow_hourly'],
    // Top-ups keep their day rows complete, today's included: the sums read only those.
    ['/api/merchant/recharges', 'list_daily'],
    ['/api/merchant/withdrawals?status=approved', 'list_daily'],
    ['/api/merchant/settlements', 'list_daily'],
  ];
  it.each(sumsCases)(
    'the sums of %s run planned without their values and read %s by index',
    async (url, rollup) => {
      const sums = await sumsOf(url);
      expect(sums.settings).toContain('plan_cache_mode=force_generic_plan');
      // Nor parallel workers: starting them took 5 ms of a 5 ms statement (bench lists, 10 M entries).
      expect(sums.settings).toContain('max_parallel_workers_per_gather=0');
      const plan = await genericPlanOf(sums);
      expect(plan).toContain(rollup);
      expect(plan).not.toMatch(/Seq Scan|Gather/);
      // The hours not folded yet are read by a partial index of theirs, never picked out of every hour
      // of the status through the primary key (bench lists at 10 M orders, before migration 0021: 2,140
      // rows read to sum none, 1.0-1.6 ms; on this test's smaller rollup the planner chose well anyway).
      expect(plan).not.toMatch(/Filter: \(slot <> 0\)/);
    },
  );

  // A range cut to the minute, in hours the housekeeping sweep has closed: the two partial hours at its
  // edges are summed from minute rows, never from the rows of the list (bench lists at 10 M rows: 2,623
  // rows read off the index, 0.35 ms).
  const edgeCases: [string, string, string][] = [
    [`/api/merchant/collections?${minutes}`, 'order_minutely', 'collections'],
    [`/api/merchant/payouts?${minutes}`, 'order_minutely', 'payouts'],
    [`/api/merchant/fund-flows?${minutes}`, 'fund_flow_minutely', 'fund_flows'],
  ];
  it.each(edgeCases)('the sums of %s read the edges from %s, not from %s', async (url, rollup, table) => {
    const plan = await genericPlanOf(await sumsOf(url));
    expect(plan).toMatch(new RegExp(`(Index|Index Only|Bitmap Heap) Scan (using \\w+ )?on ${rollup}\\b`));
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).not.toMatch(new RegExp(`on ${table}\\b`));
  });
});
