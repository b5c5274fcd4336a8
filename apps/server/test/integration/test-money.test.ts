import { and, desc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, postings, testDataDeletions } from '../../src/db/schema/index.ts';
import { trialBalance, verifyLedger } from '../../src/modules/ledger/index.ts';
import {
  createGatewayMerchant,
  type GatewayMerchant,
  gatewayCall,
  testModeOf,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Test mode's money (DESIGN 12, issue 35 item 2): its own merchant, channel and platform accounts, books
// that balance per mode and currency, and test funds a ROOT adds from the console in test mode only.

let ctx: TestContext;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
let live: GatewayMerchant;
let test: GatewayMerchant;
let root: TestClient;
let finance: TestClient;
const TEST = { 'x-mode': 'test' };

beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock });
  const db = ctx.database.db;
  live = await createGatewayMerchant(db, ctx.config.appKey, {
    roles: ['ROOT', 'FINANCE'],
    channel: { settlementCycle: 'T0' },
  });
  test = await testModeOf(db, ctx.config.appKey, live);
  // One paid and settled order in each mode, on channels of the same code.
  for (const [m, tag] of [
    [live, 'LIVE'],
    [test, 'TEST'],
  ] as const) {
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: `C-${tag}`, amount: '100.00' },
      now: () => clock,
    });
    expect(made.statusCode, made.body).toBe(201);
    await ctx.app.services.collections.finish(made.json().data.trade_no, 'paid');
  }
  clock = new Date(clock.getTime() + 1000);
  expect((await ctx.app.services.settlements.run()).posted).toHaveLength(2);
  root = await loginAs(ctx.app, live.users.ROOT.email, TEST_PASSWORD);
  finance = await loginAs(ctx.app, live.users.FINANCE.email, TEST_PASSWORD);
});
afterAll(() => ctx.close());

describe('each mode has its own books', () => {
  it('a test settlement posts to test accounts only; each mode and currency sums to zero', async () => {
    expect(live.channel!.code).toBe(test.channel!.code);
    const books = await trialBalance(ctx.database.db);
    expect(books.balanced).toBe(true);
    const of = (mode: string) => books.currencies.find((c) => c.mode === mode && c.currency === 'CNY')!;
    const code = live.channel!.code;
    // 100.00 paid, 1.50 fee (the factory's channel): the same amounts, in accounts apart.
    expect(of('live').accounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: `channel_clearing:${code}:CNY`, balance: '-100.00' }),
        expect.objectContaining({ code: 'fee_revenue:CNY', balance: '1.50' }),
      ]),
    );
    expect(of('test').accounts).toEqual([
      expect.objectContaining({ code: `test:channel_clearing:${code}:CNY`, balance: '-100.00' }),
      expect.objectContaining({ code: 'test:fee_revenue:CNY', balance: '1.50' }),
    ]);
    expect(of('live').accounts.every((a) => !a.code.startsWith('test:'))).toBe(true);
    expect(of('test')).toMatchObject({ merchants: { available: '98.50', locked: '0.00' }, total: '0.00' });
    expect(await trialBalance(ctx.database.db, 'test')).toEqual({ balanced: true, currencies: [of('test')] });

    const report = await verifyLedger(ctx.database.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    expect(report.modes.map((m) => m.mode)).toEqual(['live', 'test']);
  });

  it('ledger:verify reports an entry of one mode that posts to an account of the other', async () => {
    const db = ctx.database.db;
    // The fee accounts are sharded by merchant ("fee_revenue:CNY#5"): both merchants' rows' shard.
    const feeAccount = (mode: 'live' | 'test') =>
      db
        .select()
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.kind, 'fee_revenue'), eq(ledgerAccounts.mode, mode)))
        .then((rows) => rows[0]);
    const [testFee, liveFee] = [await feeAccount('test'), await feeAccount('live')];
    const moved = await db
      .update(postings)
      .set({ accountId: liveFee.id })
      .where(eq(postings.accountId, testFee.id))
      .returning();
    try {
      const report = await verifyLedger(db, undefined, 'test');
      const crossed = report.problems.filter((p) => p.invariant === 'modes_apart');
      expect(crossed).toEqual([
        {
          merchant_no: test.merchant.no,
          mode: 'test',
          invariant: 'modes_apart',
          message: expect.stringMatching(
            new RegExp(
              `^journal entry ${moved[0].entryId} \\(.+\\) of test mode posts to live account ${liveFee.code}$`,
            ),
          ),
        },
      ]);
    } finally {
      await db
        .update(postings)
        .set({ accountId: testFee.id })
        .where(
          and(
            eq(postings.accountId, liveFee.id),
            sql`${postings.id} in (${sql.join(
              moved.map((p) => sql`${p.id}`),
              sql`, `,
            )})`,
          ),
        );
    }
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});

describe('test funds', () => {
  const add = (client: TestClient, amount: unknown, headers: Record<string, string> = TEST) =>
    client.post('/api/merchant/test-funds', { amount }, headers);

  it('in live mode: 409 test_mode_only, and no balance moves', async () => {
    const before = (await root.get('/api/merchant/balance')).json().data;
    const refused = await add(root, '10.00', {});
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'test_mode_only']);
    expect((await root.get('/api/merchant/balance')).json().data).toEqual(before);
  });

  it('only ROOT may add them (FINANCE: 403)', async () => {
    const refused = await add(finance, '10.00');
    expect(refused.statusCode).toBe(403);
  });

  it.each([
    ['0', 'The amount must be greater than 0.'],
    ['0.001', 'CNY amounts have at most 2 decimals.'],
    ['1000000.01', 'The amount must be at most 1000000.00.'],
    ['ten', 'The amount must be a number with at most 6 decimals.'],
  ])('an amount of %s: 422 naming the amount, and nothing moves', async (amount, message) => {
    const before = (await root.get('/api/merchant/balance', TEST)).json().data;
    const refused = await add(root, amount);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.amount).toEqual([message]);
    expect((await root.get('/api/merchant/balance', TEST)).json().data).toEqual(before);
  });

  it('adds to the test balance through the ledger; live money does not move', async () => {
    const liveBefore = (await root.get('/api/merchant/balance')).json().data;
    const testBefore = (await root.get('/api/merchant/balance', TEST)).json().data;
    const added = await add(root, '250.00');
    expect(added.statusCode, added.body).toBe(200);
    const available = (Number(testBefore.available) + 250).toFixed(2);
    expect(added.json().data).toEqual({ currency: 'CNY', available, locked: testBefore.locked });
    expect((await root.get('/api/merchant/balance', TEST)).json().data.available).toBe(available);
    expect((await root.get('/api/merchant/balance')).json().data).toEqual(liveBefore);
    // The gateway's test key sees it; the live key does not.
    expect((await gatewayCall(ctx.app, test, 'GET', '/gateway/v1/balance')).json().data.available).toBe(
      available,
    );
    const [flow] = (await root.get('/api/merchant/fund-flows?per_page=1', TEST)).json().data;
    expect(flow).toMatchObject({
      type: 'transfer_in',
      amount: '250.00',
      ref_type: 'test_funds',
      ref_no: null,
    });
    const books = await trialBalance(ctx.database.db);
    expect(books.balanced).toBe(true);
    const testCny = books.currencies.find((c) => c.mode === 'test' && c.currency === 'CNY')!;
    expect(testCny.accounts).toContainEqual(
      expect.objectContaining({ code: 'test:operator_adjustments:CNY', balance: '-250.00' }),
    );
    const liveAccounts = await ctx.database.db
      .select()
      .from(ledgerAccounts)
      .where(like(ledgerAccounts.code, 'operator_adjustments:%'));
    expect(liveAccounts).toEqual([]);
  });
});

describe('delete all test data', () => {
  const snapshot = async (headers: Record<string, string>) => ({
    balance: (await root.get('/api/merchant/balance', headers)).json().data,
    flows: (await root.get('/api/merchant/fund-flows?per_page=100', headers)).json().data,
    collections: (await root.get('/api/merchant/collections?per_page=100', headers)).json().data,
    settlements: (await root.get('/api/merchant/settlements?per_page=100', headers)).json().data,
    dashboard: (await root.get('/api/merchant/dashboard', headers)).json().data,
  });

  it('only ROOT may ask (FINANCE: 403); while a test export is written it is refused (409 test_data_busy)', async () => {
    expect((await finance.post('/api/merchant/test-data/delete', {}, TEST)).statusCode).toBe(403);
    expect((await finance.get('/api/merchant/test-data/delete', TEST)).statusCode).toBe(403);
    const exported = await root.post('/api/merchant/exports', { kind: 'fund_flows', format: 'csv' }, TEST);
    expect(exported.statusCode, exported.body).toBe(201);
    const refused = await root.post('/api/merchant/test-data/delete', {}, TEST);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'test_data_busy']);
    expect(refused.json().message).toMatch(/export/);
    expect((await root.get('/api/merchant/test-data/delete', TEST)).json().data.status).toBe('idle');
    await ctx.app.services.exports.run(exported.json().data.id);
  });

  it('a job deletes every test object and starts again from fresh test funds; live mode stays as it was', async () => {
    const liveBefore = await snapshot({});
    const booksBefore = await trialBalance(ctx.database.db, 'live');
    expect((await snapshot(TEST)).collections).toHaveLength(1);
    // A refund of the test order (it names the order, and holds test money until the sandbox ends it).
    const refunded = await gatewayCall(
      ctx.app,
      test,
      'POST',
      `/gateway/v1/collections/${(await snapshot(TEST)).collections[0].trade_no}/refunds`,
      {
        body: { out_refund_no: 'R-TEST', amount: '10.00' },
        now: () => clock,
      },
    );
    expect(refunded.statusCode, refunded.body).toBe(201);

    const asked = await root.post('/api/merchant/test-data/delete', {}, TEST);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().data).toMatchObject({ status: 'queued', finished_at: null });
    // A second ask while it waits answers the same request; asked from live mode, too.
    const again = await root.post('/api/merchant/test-data/delete', {});
    expect(again.json().data).toEqual(asked.json().data);
    const [{ id }] = await ctx.database.db
      .select({ id: testDataDeletions.id })
      .from(testDataDeletions)
      .where(eq(testDataDeletions.merchantId, test.merchant.id));

    await ctx.app.services.testData.run(id);
    await ctx.app.services.testData.run(id); // a repeat of the job does nothing

    const status = (await root.get('/api/merchant/test-data/delete', TEST)).json().data;
    expect(status).toMatchObject({ status: 'idle', finished_at: expect.any(String) });
    const after = await snapshot(TEST);
    expect(after.balance).toEqual({
      total: '100000.00',
      available: '100000.00',
      locked: '0.00',
      currency: 'CNY',
    });
    expect(after.flows).toEqual([
      expect.objectContaining({ type: 'transfer_in', amount: '100000.00', ref_type: 'test_funds' }),
    ]);
    expect(after.collections).toEqual([]);
    expect(after.settlements).toEqual([]);
    // The lists' sums (rollups) lost the deleted orders, once each.
    for (const list of ['collections', 'payouts', 'refunds'])
      expect([list, (await root.get(`/api/merchant/${list}`, TEST)).json().meta.total]).toEqual([list, 0]);
    expect((await root.get('/api/merchant/exports', TEST)).json().data).toEqual([]);
    expect(
      (await gatewayCall(ctx.app, test, 'GET', `/gateway/v1/collections?out_trade_no=C-TEST`)).statusCode,
    ).toBe(404);
    // The test key and channel stay: a new test order works at once.
    const made = await gatewayCall(ctx.app, test, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'C-TEST', amount: '5.00' },
      now: () => clock,
    });
    expect(made.statusCode, made.body).toBe(201);

    expect(await snapshot({})).toEqual(liveBefore);
    expect(await trialBalance(ctx.database.db, 'live')).toEqual(booksBefore);
    const testBooks = (await trialBalance(ctx.database.db, 'test')).currencies[0];
    expect(testBooks).toMatchObject({
      total: '0.00',
      merchants: { available: '100000.00', locked: '0.00' },
    });
    const report = await verifyLedger(ctx.database.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  });

  it('a test export asked for after the request: the job waits for it, then deletes', async () => {
    const asked = await root.post('/api/merchant/test-data/delete', {}, TEST);
    expect(asked.statusCode, asked.body).toBe(202);
    const exported = await root.post('/api/merchant/exports', { kind: 'fund_flows', format: 'csv' }, TEST);
    expect(exported.statusCode, exported.body).toBe(201);
    const [latest] = await ctx.database.db
      .select({ id: testDataDeletions.id })
      .from(testDataDeletions)
      .where(eq(testDataDeletions.merchantId, test.merchant.id))
      .orderBy(desc(testDataDeletions.id))
      .limit(1);

    await ctx.app.services.testData.run(latest.id);
    expect((await root.get('/api/merchant/test-data/delete', TEST)).json().data.status).toBe('queued');
    const orders = () => gatewayCall(ctx.app, test, 'GET', '/gateway/v1/collections?out_trade_no=C-TEST');
    expect((await orders()).statusCode).toBe(200);

    await ctx.app.services.exports.run(exported.json().data.id);
    await ctx.app.services.testData.run(latest.id);
    expect((await root.get('/api/merchant/test-data/delete', TEST)).json().data.status).toBe('idle');
    expect((await orders()).statusCode).toBe(404);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});
