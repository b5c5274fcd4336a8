import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../../src/cli/ops-commands.ts';
import { injectTransport } from '../../src/cli/transport.ts';
import { queryRows } from '../../src/db/client.ts';
import { seedDemo } from '../../src/modules/demo/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// ops demo:traffic: collections through the demo merchant's real signed gateway route, finished by the
// sandbox's auto mode; the books still balance after.

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await seedDemo(ctx.database.db, { appKey: ctx.config.appKey });
  token = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
});
afterAll(() => ctx?.close());

async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    io: { out: (t) => out.push(t), err: (t) => err.push(t) },
    connect: async () => injectTransport(ctx.app, token),
    defaultOperator: 'tester',
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const trafficOrders = () =>
  queryRows<{ trade_no: string; channel_code: string; status: string }>(
    ctx.database.db,
    sql`select trade_no, channel_code, status from collections where out_trade_no like 'TRAFFIC-%' order by id`,
  );

describe('ops demo:traffic', () => {
  it('sends signed collections at the rate asked, and the auto channel finishes them', async () => {
    const run = await ops(
      'demo:traffic',
      '--merchant',
      'M100001',
      '--rate',
      '40',
      '--duration',
      '1',
      '--payouts',
      '0',
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('Sent 40 order(s) for M100001');
    expect(run.out).toContain('collections created: 40');
    const orders = await trafficOrders();
    expect(orders).toHaveLength(40);
    expect(new Set(orders.map((o) => o.channel_code))).toEqual(new Set(['sandbox-auto']));
    // Each order signed with the merchant's secret is an operator action: who, why, and what it made.
    const actions = await queryRows<{ operator_name: string; reason: string; trade_no: string }>(
      ctx.database.db,
      sql`select operator_name, reason, detail->'result'->>'trade_no' as trade_no
          from operator_actions where action = 'demo.collection' order by id`,
    );
    expect(actions).toHaveLength(40);
    expect(new Set(actions.map((a) => `${a.operator_name}: ${a.reason}`))).toEqual(
      new Set(['tester: demo traffic']),
    );
    expect(actions.map((a) => a.trade_no).sort()).toEqual(orders.map((o) => o.trade_no).sort());

    // The auto channel's job: 90% paid, the rest failed, none left to pay.
    for (const order of orders)
      await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: order.trade_no });
    const finished = await trafficOrders();
    expect(finished.filter((o) => o.status === 'to_be_paid')).toEqual([]);
    expect(finished.some((o) => o.status === 'paid')).toBe(true);
    await ctx.app.services.settlements.run();
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('sends payouts too, in the share asked, in every demo currency', async () => {
    const rich = await ops(
      'demo:traffic',
      '--merchant',
      'M100001',
      '--rate',
      '20',
      '--duration',
      '1',
      '--payouts',
      '50',
    );
    expect(rich.err).toBe('');
    expect(rich.out).toContain('collections created: 10');
    expect(rich.out).toContain('payouts created: 10');
    // The other demo merchants have less money: a payout is created or refused for want of funds, never
    // refused for its form (each currency's payee passes its country's rules).
    for (const merchant of ['M100002', 'M100003', 'M100004']) {
      const run = await ops(
        'demo:traffic',
        '--merchant',
        merchant,
        '--rate',
        '20',
        '--duration',
        '1',
        '--payouts',
        '50',
      );
      expect(run.out, run.out).toContain('collections created: 10');
      expect(run.out, run.out).toMatch(/payouts created: \d+/);
      expect(run.out, run.out).not.toMatch(/refused 422 (validation_failed|amount_out_of_range)/);
    }
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('routed: new orders go to the next channel once the first is taken down (DESIGN 14)', async () => {
    const routed = (...extra: string[]) =>
      ops(
        'demo:traffic',
        '--merchant',
        'M100001',
        '--routed',
        '--rate',
        '20',
        '--duration',
        '1',
        '--payouts',
        '0',
        ...extra,
      );
    const channelsOf = async (from: number) => (await trafficOrders()).slice(from).map((o) => o.channel_code);
    let seen = (await trafficOrders()).length;
    expect((await routed()).out).toContain('collections created: 20');
    // Test mode's two collection channels: `sandbox` first, `sandbox-auto` routed below it.
    expect(new Set(await channelsOf(seen))).toEqual(new Set(['sandbox']));
    const down = await ops(
      'channel:close',
      ...['--merchant', 'M100001', '--mode', 'test', '--code', 'sandbox', '--kind', 'collection'],
      ...['--reason', 'bank outage'],
    );
    expect(down.code, down.err).toBe(0);
    seen = (await trafficOrders()).length;
    expect((await routed()).out).toContain('collections created: 20');
    expect(new Set(await channelsOf(seen))).toEqual(new Set(['sandbox-auto']));
  });

  it('refuses a merchant without a key, and bad options, changing nothing', async () => {
    const before = (await trafficOrders()).length;
    const unknown = await ops('demo:traffic', '--merchant', 'M999999', '--duration', '1');
    expect(unknown.code).not.toBe(0);
    const badRate = await ops('demo:traffic', '--merchant', 'M100001', '--rate', '0');
    expect(badRate.code).not.toBe(0);
    expect(badRate.err).toContain('--rate');
    expect((await trafficOrders()).length).toBe(before);
  });
});
