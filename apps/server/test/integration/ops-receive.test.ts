import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { toMinor } from '@paydesk/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { channels, collections, fundFlows, operatorActions, settlements } from '../../src/db/schema/index.ts';
import { runOps } from '../../src/cli/ops-commands.ts';
import { injectTransport, type OpsTransport } from '../../src/cli/transport.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  gatewayCall,
  type GatewayMerchant,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Receive money as the platform's staff run it (DESIGN sections 4, 6 and 10): channels opened and closed,
// sandbox orders finished and settlements run from the command line, in this process, through the operator
// API; what a merchant notices is read back through the signed gateway.

let ctx: TestContext;
let db: Db;
let token: string;
let m: GatewayMerchant;
// The app's clock: a settlement's T+0 cutoff is "now", so the test moves it on instead of waiting.
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

const OPERATOR = 'Olga Ops';

/**
 * A command answers in well under a second. One that has not answered after this long never will: it is
 * stuck, and so is the database connection it holds (PGlite has one), so every later call would hang too.
 */
const STUCK_AFTER_MS = 15_000;
let stuck: string | undefined;

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  // A test key and a whitelist, but no channel: the operator opens it (the sandbox serves test mode only).
  m = await createGatewayMerchant(db, ctx.config.appKey, { channel: false, mode: 'test' });
});
// Fail at once, naming the command that got stuck, rather than time out on a database that no longer answers.
beforeEach(() => {
  if (stuck) throw new Error(`Not run: ${stuck}`);
});
afterAll(async () => {
  if (!stuck) await ctx.close();
});

/** Runs the command line against the test app in this process; counts how often it reached the API. */
async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let connections = 0;
  let watchdog: NodeJS.Timeout | undefined;
  const noAnswer = new Promise<never>((_resolve, reject) => {
    watchdog = setTimeout(() => {
      stuck = `\`${argv.join(' ')}\` gave no answer in ${STUCK_AFTER_MS / 1000} s: the operator API hangs.`;
      reject(new Error(stuck));
    }, STUCK_AFTER_MS);
  });
  try {
    const code = await Promise.race([
      runOps(argv, {
        io: { out: (t) => out.push(t), err: (t) => err.push(t) },
        connect: async (): Promise<OpsTransport> => {
          connections += 1;
          return injectTransport(ctx.app, token);
        },
        defaultOperator: 'tester',
      }),
      noAnswer,
    ]);
    return { code, out: out.join('\n'), err: err.join('\n'), connections };
  } finally {
    clearTimeout(watchdog);
  }
}

/** The merchant's test-mode sandbox channel, as the channel commands name it. */
const sandboxChannel = () => ['--merchant', m.merchant.no, '--mode', 'test', '--code', 'sandbox'];

const openSandbox = (reason: string) =>
  ops(
    'channel:open',
    ...sandboxChannel(),
    '--kind',
    'collection',
    '--fee-rate',
    '1.5',
    '--min-amount',
    '1.00',
    '--max-amount',
    '50000.00',
    '--cycle',
    'T0',
    '--reason',
    reason,
    '--operator',
    OPERATOR,
  );

const collect = (outTradeNo: string, amount: string) =>
  gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: outTradeNo, amount },
    now,
  });

const readOrder = async (tradeNo: string) =>
  (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${tradeNo}`, { now })).json().data;

const balance = async () =>
  (await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now })).json().data;

/** A collection created through the gateway; fails loudly if the gateway refused it. */
async function newOrder(outTradeNo: string, amount: string) {
  const response = await collect(outTradeNo, amount);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { trade_no: string; fee: string; status: string };
}

/** Everything an operator command could change, as the database holds it. */
async function snapshot() {
  const [counts] = await db
    .select({
      actions: sql<string>`(select count(*) from ${operatorActions})::text`,
      settlements: sql<string>`(select count(*) from ${settlements})::text`,
      entries: sql<string>`(select count(*) from ${fundFlows})::text`,
      orders: sql<string>`(select string_agg(${collections.tradeNo} || ':' || ${collections.status} || ':' ||
        ${collections.settlementStatus}, ',' order by ${collections.id}) from ${collections})`,
    })
    .from(sql`(select 1) as one`);
  const rows = await db
    .select()
    .from(channels)
    .where(eq(channels.merchantId, m.merchant.id))
    .orderBy(channels.id);
  return { ...counts, channels: rows };
}

/** The operator actions recorded since the given id, oldest first. */
const actionsAfter = (id: number) =>
  db.select().from(operatorActions).where(gt(operatorActions.id, id)).orderBy(operatorActions.id);

async function lastActionId() {
  const [row] = await db
    .select({ id: operatorActions.id })
    .from(operatorActions)
    .orderBy(desc(operatorActions.id))
    .limit(1);
  return row?.id ?? 0;
}

describe('channel:open, channel:list and channel:close', () => {
  it('without a channel, a gateway collection answers 422 channel_unavailable', async () => {
    const refused = await collect('NO-CHANNEL-1', '10.00');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('channel_unavailable');
  });

  it.each([
    [
      'a fee rate that is not a number',
      ['--fee-rate', 'abc', '--min-amount', '1.00', '--max-amount', '50000.00', '--kind', 'collection'],
      '--fee-rate: The fee_rate must be a percent with at most 4 decimals, e.g. 1.5.',
    ],
    [
      'a settlement cycle on a payout channel',
      ['--fee-rate', '1.5', '--min-amount', '1.00', '--max-amount', '50000.00', '--kind', 'payout'],
      '--cycle: A settlement cycle is for collection channels only.',
    ],
    [
      'a maximum below the minimum',
      ['--fee-rate', '1.5', '--min-amount', '100.00', '--max-amount', '50.00', '--kind', 'collection'],
      '--max-amount: The maximum must not be below the minimum.',
    ],
  ])('%s prints the error and the usage, exits 2 and changes nothing', async (_name, terms, message) => {
    const before = await snapshot();
    const result = await ops(
      'channel:open',
      ...sandboxChannel(),
      ...terms,
      '--cycle',
      'T0',
      '--reason',
      'bad terms',
      '--operator',
      OPERATOR,
    );
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toContain(`Error: ${message}`);
    expect(result.err).toContain('Usage: npm run ops -- channel:open');
    expect(await snapshot()).toEqual(before);
    // Still no channel: the refused collection writes nothing, so its number can be sent again.
    expect((await collect('BAD-TERMS-1', '10.00')).json().code).toBe('channel_unavailable');
  });

  it('refuses a live sandbox channel (the sandbox serves test mode only): exits 1, nothing changes', async () => {
    const before = await snapshot();
    const args = ['--code', 'sandbox', '--kind', 'collection', '--fee-rate', '1.5'];
    const limits = [
      '--min-amount',
      '1.00',
      '--max-amount',
      '50000.00',
      '--reason',
      'live',
      '--operator',
      OPERATOR,
    ];
    const live = await ops('channel:open', '--merchant', m.merchant.no, ...args, ...limits);
    expect(live.code).toBe(1);
    expect(live.err).toBe(
      'Error (409): The sandbox provider serves test mode only: open it with --mode test.',
    );
    expect(await snapshot()).toEqual(before);
    const bad = await ops('channel:open', '--merchant', m.merchant.no, '--mode', 'demo', ...args, ...limits);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--mode: The mode must be live or test.');
  });

  it('opens a T0 collection channel, prints what it opened, records it, and the channel takes collections', async () => {
    const since = await lastActionId();
    const opened = await openSandbox('onboarding');
    expect(opened.err).toBe('');
    expect(opened.code).toBe(0);
    expect(opened.out).toBe(
      `Opened: ${m.merchant.no} collection channel sandbox (open): fee 1.5% + 0.00 CNY, 1.00 to 50000.00, settles T0, sandbox manual, priority 0 weight 100.`,
    );
    const actions = await actionsAfter(since);
    expect(actions.map((a) => [a.operatorName, a.action, a.reason, a.merchantId])).toEqual([
      [OPERATOR, 'channel.open', 'onboarding', m.merchant.id],
    ]);

    const order = await newOrder('OPEN-1', '100.00');
    expect(order).toMatchObject({ status: 'to_be_paid', fee: '1.50', channel: 'sandbox' });
    // The channel's limits hold: 1.00 to 50,000.00.
    const tooBig = await collect('OPEN-BIG', '50000.01');
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().code).toBe('amount_out_of_range');
    const tooSmall = await collect('OPEN-SMALL', '0.99');
    expect(tooSmall.statusCode).toBe(422);
    expect(tooSmall.json().code).toBe('amount_out_of_range');
  });

  it('channel:list --json lists it with its terms; without --json as a table', async () => {
    const listed = await ops('channel:list', '--merchant', m.merchant.no, '--mode', 'test', '--json');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.out) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      merchant: m.merchant.no,
      code: 'sandbox',
      kind: 'collection',
      country: 'CN',
      currency: 'CNY',
      fee_rate: '1.5',
      fixed_fee: '0.00',
      min_amount: '1.00',
      max_amount: '50000.00',
      settlement_cycle: 'T0',
      sandbox_mode: 'manual',
      status: 'open',
      opened_by: OPERATOR,
      closed_by: null,
    });
    const all = JSON.parse((await ops('channel:list', '--mode', 'test', '--json')).out) as {
      merchant: string;
    }[];
    expect(all.filter((c) => c.merchant === m.merchant.no)).toHaveLength(1);
    const table = await ops('channel:list', '--merchant', m.merchant.no, '--mode', 'test');
    expect(table.out).toMatch(/^MERCHANT +KIND +CODE +STATUS +CUR +FEE +LIMITS +CYCLE +SANDBOX +ROUTE\n/);
    expect(table.out).toMatch(
      new RegExp(
        `\\n${m.merchant.no} +collection +sandbox +open +CNY +1\\.5% \\+ 0\\.00 +1\\.00 - 50000\\.00 +T0 +manual +0/100$`,
      ),
    );
  });

  it('channel:close closes it: a new collection answers 422 channel_unavailable; opening again reopens it', async () => {
    const since = await lastActionId();
    const closed = await ops(
      'channel:close',
      ...sandboxChannel(),
      '--kind',
      'collection',
      '--reason',
      'bank outage',
      '--operator',
      OPERATOR,
    );
    expect(closed.err).toBe('');
    expect(closed.code).toBe(0);
    expect(closed.out).toBe(
      `Closed: ${m.merchant.no} collection channel sandbox (closed): fee 1.5% + 0.00 CNY, 1.00 to 50000.00, settles T0, sandbox manual, priority 0 weight 100.`,
    );
    const refused = await collect('CLOSED-1', '10.00');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('channel_unavailable');
    const [listed] = JSON.parse(
      (await ops('channel:list', '--merchant', m.merchant.no, '--mode', 'test', '--json')).out,
    );
    expect(listed).toMatchObject({ status: 'closed', closed_by: OPERATOR });

    // Closing a channel the merchant does not have: an error, nothing recorded.
    const before = await snapshot();
    const unknown = await ops(
      'channel:close',
      '--merchant',
      m.merchant.no,
      '--mode',
      'test',
      '--code',
      'nosuch',
      '--kind',
      'collection',
      '--reason',
      'typo',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(`Error (404): ${m.merchant.no} has no collection channel nosuch.`);
    expect(await snapshot()).toEqual(before);

    const reopened = await openSandbox('outage over');
    expect(reopened.code).toBe(0);
    expect(reopened.out).toContain(`Opened: ${m.merchant.no} collection channel sandbox (open)`);
    const [again] = JSON.parse(
      (await ops('channel:list', '--merchant', m.merchant.no, '--mode', 'test', '--json')).out,
    );
    expect(again).toMatchObject({ status: 'open', closed_by: null, settlement_cycle: 'T0' });
    expect((await collect('REOPENED-1', '10.00')).statusCode).toBe(201);

    const actions = await actionsAfter(since);
    expect(actions.map((a) => [a.operatorName, a.action, a.reason, a.merchantId])).toEqual([
      [OPERATOR, 'channel.close', 'bank outage', m.merchant.id],
      [OPERATOR, 'channel.open', 'outage over', m.merchant.id],
    ]);
  });
});

describe('sandbox:complete', () => {
  it('refuses a trade number that is not an order number before reaching the API', async () => {
    const result = await ops(
      'sandbox:complete',
      '--trade-no',
      'X20261123',
      '--result',
      'paid',
      '--reason',
      'x y z',
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      '--trade-no: The trade_no must be a collection (C...) or payout (P...) number.',
    );
    expect(result.connections).toBe(0);
  });

  it('pays a collection made through the gateway; a repeat fails, exits 1 and changes nothing', async () => {
    const order = await newOrder('SANDBOX-1', '40.00');
    const since = await lastActionId();
    const paid = await ops(
      'sandbox:complete',
      '--trade-no',
      order.trade_no,
      '--result',
      'paid',
      '--reason',
      'customer test',
      '--operator',
      OPERATOR,
    );
    expect(paid.err).toBe('');
    expect(paid.code).toBe(0);
    expect(paid.out).toBe(`${order.trade_no} is now paid.`);
    expect(await readOrder(order.trade_no)).toMatchObject({
      status: 'paid',
      paid_at: clock.toISOString(),
      settlement_status: 'unsettled',
    });
    const actions = await actionsAfter(since);
    expect(actions.map((a) => [a.operatorName, a.action, a.reason, a.merchantId])).toEqual([
      [OPERATOR, 'sandbox.complete', 'customer test', m.merchant.id],
    ]);

    const before = await snapshot();
    for (const result of ['paid', 'failed']) {
      const again = await ops(
        'sandbox:complete',
        '--trade-no',
        order.trade_no,
        '--result',
        result,
        '--reason',
        'customer test',
        '--operator',
        OPERATOR,
      );
      expect(again.code).toBe(1);
      expect(again.out).toBe('');
      expect(again.err).toBe(`Error (409): The order is paid; it cannot become ${result}.`);
    }
    expect(await snapshot()).toEqual(before);
    expect((await readOrder(order.trade_no)).status).toBe('paid');
  });
});

describe('settlement:run', () => {
  it('settles the paid order of a T0 channel: the balance rises by amount - fee, once; the ledger verifies', async () => {
    // Whatever earlier tests left paid is settled first (T+0 settles what was paid before now), so the
    // batch below holds this test's order alone.
    advance(1000);
    expect((await ops('settlement:run', '--reason', 'clear earlier', '--operator', OPERATOR)).code).toBe(0);
    const start = await balance();

    const order = await newOrder('SETTLE-1', '200.00');
    expect(order.fee).toBe('3.00');
    // The payer pays on the sandbox checkout page.
    const paid = await payOnSandboxPage(ctx.app, `/sandbox/pay/${order.trade_no}`);
    expect(paid.statusCode).toBe(303);
    expect((await readOrder(order.trade_no)).status).toBe('paid');
    // Paid money is not available until it settles.
    expect(await balance()).toEqual(start);
    advance(1000);

    const since = await lastActionId();
    const run = await ops('settlement:run', '--reason', 'end of day', '--operator', OPERATOR);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines[0]).toBe('Settled 1 batch(es):');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^ {2}S\d+ {2}sandbox {2}1 orders {2}gross 200\.00 {2}fee 3\.00 {2}net 197\.00 CNY$/,
    );
    const settlementNo = lines[1].trim().split(/\s+/)[0];

    const after = await balance();
    expect(toMinor(after.available, 'CNY') - toMinor(start.available, 'CNY')).toBe(19700n);
    expect(after).toMatchObject({ locked: start.locked, currency: 'CNY' });
    expect(await readOrder(order.trade_no)).toMatchObject({ status: 'paid', settlement_status: 'settled' });
    const [batch] = await db
      .select()
      .from(settlements)
      .where(and(eq(settlements.merchantId, m.merchant.id), eq(settlements.settlementNo, settlementNo)));
    expect(batch).toMatchObject({ status: 'settled', orderCount: 1, grossMinor: 20000n, netMinor: 19700n });

    const second = await ops('settlement:run', '--reason', 'end of day again', '--operator', OPERATOR);
    expect(second.code).toBe(0);
    expect(second.out).toBe('Nothing to settle.');
    expect(await balance()).toEqual(after);

    const verified = await ops('ledger:verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/^Ledger OK: live: \d+ merchant\(s\), \d+ entries; test: .* checked\.$/);

    const actions = await actionsAfter(since);
    expect(actions.map((a) => [a.operatorName, a.action, a.reason])).toEqual([
      [OPERATOR, 'settlement.run', 'end of day'],
      [OPERATOR, 'settlement.run', 'end of day again'],
    ]);
  });
});
