import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../src/db/schema/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  type GatewayMerchant,
  gatewayCall,
  openPayoutChannel,
  testModeOf,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Live and test mode (DESIGN 12, issue 35): one merchant, both modes, the same kinds of objects in each;
// every gateway and console read of an order-like object finds its own mode's and never the other's.

let ctx: TestContext;
// The app's clock: a T+0 settlement takes what was paid before "now", so the test moves it on.
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
let live: GatewayMerchant;
let test: GatewayMerchant;
let console: TestClient;

type Objects = { collection: string; payout: string; settlement: string; fundFlow: number };
const made: Record<'live' | 'test', Objects> = {} as never;

/** A collection (paid and settled), a pending payout, and so a fund flow, in the key's mode. */
async function objectsOf(m: GatewayMerchant, tag: string): Promise<Objects> {
  const collection = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: `C-${tag}`, amount: '100.00' },
    now: () => clock,
  });
  expect(collection.statusCode, collection.body).toBe(201);
  const tradeNo = collection.json().data.trade_no;
  await ctx.app.services.collections.finish(tradeNo, 'paid');
  const payout = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: { out_trade_no: `P-${tag}`, amount: '10.00', ...CN_PAYEE },
  });
  expect(payout.statusCode, payout.body).toBe(201);
  return { collection: tradeNo, payout: payout.json().data.trade_no, settlement: '', fundFlow: 0 };
}

beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock });
  const db = ctx.database.db;
  live = await createGatewayMerchant(db, ctx.config.appKey, { channel: { settlementCycle: 'T0' } });
  test = await testModeOf(ctx.database.db, ctx.config.appKey, live);
  for (const m of [live, test]) {
    await openPayoutChannel(db, m.merchant.id);
    await fundMerchant(db, m.merchant.id, 100_000n);
  }
  made.live = await objectsOf(live, 'LIVE');
  made.test = await objectsOf(test, 'TEST');
  // A second later the T+0 cutoff has passed both paid orders: one batch per mode.
  clock = new Date(clock.getTime() + 1000);
  const { posted } = await ctx.app.services.settlements.run();
  expect(posted).toHaveLength(2);
  console = await loginAs(ctx.app, live.users.ROOT.email, TEST_PASSWORD);
  for (const mode of ['live', 'test'] as const) {
    const headers = { 'x-mode': mode };
    const settlements = (await console.get('/api/merchant/settlements', headers)).json().data;
    expect(settlements).toHaveLength(1);
    made[mode].settlement = settlements[0].settlement_no;
    const flows = (await console.get('/api/merchant/fund-flows', headers)).json().data;
    made[mode].fundFlow = flows[0].id;
  }
});
afterAll(() => ctx.close());

const other = (mode: 'live' | 'test') => (mode === 'live' ? 'test' : 'live');
const keyOf = (mode: 'live' | 'test') => (mode === 'live' ? live : test);

describe('nothing crosses between the modes', () => {
  // Every gateway read of an order-like object, by our number and by the merchant's.
  const gatewayReads: [string, (o: Objects) => string][] = [
    ['collection by trade_no', (o) => `/gateway/v1/collections/${o.collection}`],
    [
      'collection by out_trade_no',
      (o) =>
        `/gateway/v1/collections?out_trade_no=${o.collection === made.live.collection ? 'C-LIVE' : 'C-TEST'}`,
    ],
    ['payout by trade_no', (o) => `/gateway/v1/payouts/${o.payout}`],
    [
      'payout by out_trade_no',
      (o) => `/gateway/v1/payouts?out_trade_no=${o.payout === made.live.payout ? 'P-LIVE' : 'P-TEST'}`,
    ],
  ];
  it.each(
    gatewayReads.flatMap(([name, url]) =>
      (['live', 'test'] as const).map((mode) => [name, mode, url] as const),
    ),
  )(
    "gateway %s with a %s key: its own object with livemode, the other mode's 404",
    async (_name, mode, url) => {
      const own = await gatewayCall(ctx.app, keyOf(mode), 'GET', url(made[mode]));
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data.livemode).toBe(mode === 'live');
      const crossed = await gatewayCall(ctx.app, keyOf(mode), 'GET', url(made[other(mode)]));
      expect(crossed.statusCode, crossed.body).toBe(404);
    },
  );

  // Every console detail of an order-like object, and the list it appears in.
  const consoleReads: [string, (o: Objects) => string, string, (o: Objects) => unknown, string][] = [
    [
      'collection',
      (o) => `/api/merchant/collections/${o.collection}`,
      '/api/merchant/collections',
      (o) => o.collection,
      'trade_no',
    ],
    [
      'payout',
      (o) => `/api/merchant/payouts/${o.payout}`,
      '/api/merchant/payouts',
      (o) => o.payout,
      'trade_no',
    ],
    [
      'settlement',
      (o) => `/api/merchant/settlements/${o.settlement}`,
      '/api/merchant/settlements',
      (o) => o.settlement,
      'settlement_no',
    ],
    [
      'fund flow',
      (o) => `/api/merchant/fund-flows/${o.fundFlow}`,
      '/api/merchant/fund-flows',
      (o) => o.fundFlow,
      'id',
    ],
  ];
  it.each(
    consoleReads.flatMap((read) => (['live', 'test'] as const).map((mode) => [read[0], mode, read] as const)),
  )(
    "console %s in %s mode: its own in the detail and the list, the other mode's 404 and absent",
    async (_name, mode, [, detail, list, key, field]) => {
      const headers = { 'x-mode': mode };
      expect((await console.get(detail(made[mode]), headers)).statusCode).toBe(200);
      const crossed = await console.get(detail(made[other(mode)]), headers);
      expect(crossed.statusCode, crossed.body).toBe(404);
      const listed = (await console.get(list, headers)).json();
      expect(listed.meta.mode).toBe(mode);
      const keys = listed.data.map((row: Record<string, unknown>) => row[field]);
      expect(keys).toContain(key(made[mode]));
      expect(keys).not.toContain(key(made[other(mode)]));
    },
  );

  it('the balances, the dashboard and the daily report are each mode’s own', async () => {
    const liveBalance = (await console.get('/api/merchant/balance')).json().data;
    const testBalance = (await console.get('/api/merchant/balance', { 'x-mode': 'test' })).json().data;
    // Funded 1,000.00 each; a 100.00 order settled (1.50 fee) and a 10.00 payout held (0.60 fee).
    expect(liveBalance).toEqual(testBalance);
    expect(liveBalance).toMatchObject({ available: '1087.90', locked: '10.60' });
    // Each mode's own money moves only its own balance.
    await fundMerchant(ctx.database.db, test.merchant.id, 5_000n);
    expect((await console.get('/api/merchant/balance')).json().data).toEqual(liveBalance);
    expect((await console.get('/api/merchant/balance', { 'x-mode': 'test' })).json().data.available).toBe(
      '1137.90',
    );
    expect((await gatewayCall(ctx.app, live, 'GET', '/gateway/v1/balance')).json().data.available).toBe(
      '1087.90',
    );
    expect((await gatewayCall(ctx.app, test, 'GET', '/gateway/v1/balance')).json().data.available).toBe(
      '1137.90',
    );
  });
});

describe('live only', () => {
  it.each([
    ['GET', '/api/merchant/recharge-options'],
    ['GET', '/api/merchant/recharges'],
    ['POST', '/api/merchant/recharges'],
    ['GET', '/api/merchant/withdrawal-options'],
    ['GET', '/api/merchant/withdrawals'],
    ['POST', '/api/merchant/withdrawals'],
    ['GET', '/api/merchant/withdrawals/W1'],
  ])('%s %s in test mode: 409 live_only, and it answers as before in live mode', async (method, url) => {
    const body = method === 'POST' ? { body: {} } : {};
    const test = await console.request(method as 'GET', url, { headers: { 'x-mode': 'test' }, ...body });
    expect([test.statusCode, test.json().code]).toEqual([409, 'live_only']);
    const live = await console.request(method as 'GET', url, body);
    expect(live.statusCode).not.toBe(409);
  });
});

describe('meta.mode only where the objects have a mode', () => {
  it('the security log (the company’s) says no mode; a list of per-mode objects says its own', async () => {
    for (const mode of ['live', 'test'] as const) {
      const log = (await console.get('/api/merchant/security-events', { 'x-mode': mode })).json();
      expect(log.meta).not.toHaveProperty('mode');
      const flows = (await console.get('/api/merchant/fund-flows', { 'x-mode': mode })).json();
      expect(flows.meta.mode).toBe(mode);
    }
  });
});

describe('live only: their exports too', () => {
  it.each(['recharges', 'withdrawals'])(
    'an export of %s in test mode: 409 live_only and no task; in live mode it is made',
    async (kind) => {
      const count = async () =>
        (await console.get('/api/merchant/exports', { 'x-mode': 'test' })).json().data.length;
      const before = await count();
      const refused = await console.post(
        '/api/merchant/exports',
        { kind, format: 'csv' },
        { 'x-mode': 'test' },
      );
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'live_only']);
      expect(await count()).toBe(before);
      const made = await console.post('/api/merchant/exports', { kind, format: 'csv' });
      expect(made.statusCode, made.body).toBe(201);
    },
  );
});

describe('what is the company’s and its people’s reads the same in either mode', () => {
  // Users, sessions, the security log, two-factor, the payment password and the IP whitelist are recorded
  // on the live row (DESIGN 12): the console's mode changes none of what they show.
  it.each([
    '/api/merchant/security-events',
    '/api/user/sessions',
    '/api/user/meta',
    '/api/merchant/ip-address',
    '/api/merchant/user',
  ])('GET %s answers the same data in live and in test mode', async (url) => {
    const inLive = await console.get(url);
    const inTest = await console.get(url, { 'x-mode': 'test' });
    expect(inLive.statusCode, inLive.body).toBe(200);
    expect(inTest.statusCode, inTest.body).toBe(200);
    expect(inTest.json().data).toEqual(inLive.json().data);
  });

  it('the security log in test mode shows what was done in either mode (the sign-in, a test key’s change)', async () => {
    const changed = await console.put(
      '/api/merchant/access-key/update',
      { mode: 'test', notify_url: 'https://merchant.example/test-log' },
      { 'x-mode': 'test' },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const events = (await console.get('/api/merchant/security-events', { 'x-mode': 'test' })).json().data;
    const types = events.map((event: { type: string }) => event.type);
    expect(types).toContain('login');
    expect(
      events.find((event: { type: string }) => event.type === 'notify_url_changed').detail,
    ).toMatchObject({ mode: 'test', to: 'https://merchant.example/test-log' });
  });

  it('each key has its own notify URL: the form of a mode writes its own key’s and leaves the other’s', async () => {
    const before = (await console.get('/api/merchant/access-key?mode=live')).json().data.notify_url;
    const saved = await console.put(
      '/api/merchant/access-key/update',
      { mode: 'test', notify_url: 'https://merchant.example/test-only' },
      { 'x-mode': 'test' },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      mode: 'test',
      notify_url: 'https://merchant.example/test-only',
    });
    expect((await console.get('/api/merchant/access-key?mode=test')).json().data.notify_url).toBe(
      'https://merchant.example/test-only',
    );
    expect((await console.get('/api/merchant/access-key?mode=live')).json().data.notify_url).toBe(before);
    const refused = await console.put('/api/merchant/access-key/update', {
      mode: 'sandbox',
      notify_url: 'https://merchant.example/x',
    });
    expect(refused.statusCode).toBe(422);
  });
});

describe('bad input', () => {
  it.each(['TEST', 'Live', 'sandbox', '', 'live,test'])(
    'X-Mode %j answers 400 mode_invalid naming the header, on a read and on a write',
    async (value) => {
      const read = await console.get('/api/merchant/collections', { 'x-mode': value });
      expect(read.statusCode, read.body).toBe(400);
      expect(read.json()).toMatchObject({ code: 'mode_invalid', message: expect.stringContaining('X-Mode') });
      const write = await console.post('/api/merchant/exports', { kind: 'collections' }, { 'x-mode': value });
      expect(write.statusCode).toBe(400);
      expect(write.json().code).toBe('mode_invalid');
    },
  );

  it('a key of one mode used with the other mode’s object: 404, and nothing of it is shown', async () => {
    const crossed = await gatewayCall(
      ctx.app,
      test,
      'GET',
      `/gateway/v1/collections/${made.live.collection}`,
    );
    expect(crossed.statusCode).toBe(404);
    expect(crossed.body).not.toContain(made.live.collection);
  });

  it('the live key of a merchant whose only channels are test mode’s gets 422 channel_unavailable', async () => {
    const db = ctx.database.db;
    await db.update(channels).set({ status: 'closed' }).where(eq(channels.merchantId, live.merchant.id));
    const refused = await gatewayCall(ctx.app, live, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'C-NO-LIVE', amount: '10.00' },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'channel_unavailable']);
    const accepted = await gatewayCall(ctx.app, test, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'C-STILL-TEST', amount: '10.00' },
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().data.livemode).toBe(false);
    // The console opens in test mode while no live channel is open.
    expect((await console.get('/api/merchant/user')).json().data.merchant.default_mode).toBe('test');
  });
});
