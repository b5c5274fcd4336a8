import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard, DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import {
  createGatewayMerchant,
  openPayoutChannel,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The Dashboard (DESIGN section 5): today's cards and the last 30 days' series in the user's time zone,
// from the orders themselves, each part only for a user who may see its list.

let clock = new Date('2026-03-12T06:00:00Z');
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock });
});
afterAll(() => ctx?.close());

let sequence = 0;
async function collect(m: GatewayMerchant, at: string, amount: string, result?: 'paid' | 'failed') {
  clock = new Date(at);
  const created = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: `DB-${m.merchant.id}-${(sequence += 1)}`, amount },
    now: () => clock,
  });
  expect(created.statusCode, created.body).toBe(201);
  const tradeNo = created.json().data.trade_no as string;
  if (result) await ctx.app.services.collections.finish(tradeNo, result);
  return tradeNo;
}

async function pay(m: GatewayMerchant, at: string, amount: string, result?: 'success' | 'failed') {
  clock = new Date(at);
  const created = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: {
      out_trade_no: `DBP-${m.merchant.id}-${(sequence += 1)}`,
      amount,
      account_type: 'individual',
      bank_code: 'ICBC',
      bank_name: '中国工商银行',
      payee_name: '张三',
      account_no: '6222020200112233445',
    },
    now: () => clock,
  });
  expect(created.statusCode, created.body).toBe(201);
  const tradeNo = created.json().data.trade_no as string;
  if (result) {
    await ctx.app.services.payouts.transition(tradeNo, 'processing');
    await ctx.app.services.payouts.transition(tradeNo, result, result === 'failed' ? 'test' : null);
  }
  return tradeNo;
}

async function merchantWithTraffic() {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
    roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
  });
  await openPayoutChannel(ctx.database.db, m.merchant.id);
  await fundMerchant(ctx.database.db, m.merchant.id, 1_000_000n);
  // 2026-03-10 (Kolkata, UTC+5:30): two paid, one failed.
  await collect(m, '2026-03-10T04:00:00Z', '100.00', 'paid');
  await collect(m, '2026-03-10T05:00:00Z', '250.50', 'paid');
  await collect(m, '2026-03-10T06:00:00Z', '80.00', 'failed');
  // 19:00 UTC on the 10th: still the 10th in UTC, already 00:30 on the 11th in Kolkata.
  await collect(m, '2026-03-10T19:00:00Z', '10.00', 'paid');
  // Today, 2026-03-12 in Kolkata: one paid, one still waiting for the payer.
  await collect(m, '2026-03-12T03:00:00Z', '20.00', 'paid');
  await collect(m, '2026-03-12T04:00:00Z', '30.00');
  await pay(m, '2026-03-10T08:00:00Z', '40.00', 'success');
  await pay(m, '2026-03-10T09:00:00Z', '15.00', 'failed');
  await pay(m, '2026-03-12T05:00:00Z', '12.00');
  clock = new Date('2026-03-12T06:00:00Z');
  return m;
}

const point = (series: DayPoint[] | null, date: string) => series?.find((p) => p.date === date);

describe('GET /api/merchant/dashboard: the charts’ series', () => {
  it('counts each local day’s orders, their paid amount, success rate and mix by status', async () => {
    const m = await merchantWithTraffic();
    const client = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const response = await client.get('/api/merchant/dashboard', { 'x-timezone': 'Asia/Kolkata' });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as Dashboard;
    expect(data.today).toBe('2026-03-12');
    expect(data.timezone).toBe('Asia/Kolkata');
    expect(data.series.days).toHaveLength(30);
    expect(data.series.days[0]).toBe('2026-02-11');
    expect(data.series.days.at(-1)).toBe('2026-03-12');
    expect(data.series.collection).toHaveLength(30);

    expect(point(data.series.collection, '2026-03-10')).toEqual({
      date: '2026-03-10',
      paid_amount: '350.50',
      paid_count: 2,
      order_count: 3,
      success_rate: '0.6667',
      statuses: { paid: 2, failed: 1 },
    });
    expect(point(data.series.collection, '2026-03-11')).toMatchObject({
      paid_amount: '10.00',
      order_count: 1,
    });
    // Today's point is today's card: the same figures, by construction.
    const today = point(data.series.collection, '2026-03-12')!;
    expect(today).toMatchObject({
      paid_amount: '20.00',
      paid_count: 1,
      order_count: 2,
      success_rate: '1.0000',
    });
    expect(today.statuses).toEqual({ paid: 1, to_be_paid: 1 });
    const { currency: _c, ...card } = data.collection!;
    const { date: _d, statuses: _s, ...figures } = today;
    expect(figures).toEqual(card);
    // A day without orders has no rate, not a zero one.
    expect(point(data.series.collection, '2026-03-01')).toEqual({
      date: '2026-03-01',
      paid_amount: '0.00',
      paid_count: 0,
      order_count: 0,
      success_rate: null,
      statuses: {},
    });

    expect(point(data.series.payout, '2026-03-10')).toEqual({
      date: '2026-03-10',
      paid_amount: '40.00',
      paid_count: 1,
      order_count: 2,
      success_rate: '0.5000',
      statuses: { success: 1, failed: 1 },
    });
    expect(point(data.series.payout, '2026-03-12')).toMatchObject({
      order_count: 1,
      success_rate: null,
      statuses: { pending: 1 },
    });
  });

  it('reads the days in the user’s zone: the late order of the 10th moves to the 11th in Kolkata', async () => {
    const m = await merchantWithTraffic();
    const client = await loginAs(ctx.app, m.users.OPERATOR.email, TEST_PASSWORD);
    const utc = (await client.get('/api/merchant/dashboard', { 'x-timezone': 'UTC' })).json()
      .data as Dashboard;
    expect(point(utc.series.collection, '2026-03-10')).toMatchObject({
      order_count: 4,
      paid_amount: '360.50',
    });
    expect(point(utc.series.collection, '2026-03-11')).toMatchObject({ order_count: 0 });
    const kolkata = (await client.get('/api/merchant/dashboard', { 'x-timezone': '+05:30' })).json()
      .data as Dashboard;
    expect(point(kolkata.series.collection, '2026-03-10')).toMatchObject({ order_count: 3 });
    expect(point(kolkata.series.collection, '2026-03-11')).toMatchObject({ order_count: 1 });
  });

  it('leaves out the series of a list the user may not see, and another merchant’s orders', async () => {
    const m = await merchantWithTraffic();
    const finance = await loginAs(ctx.app, m.users.FINANCE.email, TEST_PASSWORD);
    const data = (await finance.get('/api/merchant/dashboard')).json().data as Dashboard;
    expect(data.collection).toBeNull();
    // FINANCE sees payouts (it approves them, DESIGN 16), never collections.
    expect(data.series.collection).toBeNull();
    expect(data.series.payout).not.toBeNull();
    expect(data.payout_approval).toMatchObject({ count: 0 });
    expect(data.series.days).toHaveLength(30);

    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { roles: ['VIEWER'] });
    const viewer = await loginAs(ctx.app, other.users.VIEWER.email, TEST_PASSWORD);
    const theirs = (await viewer.get('/api/merchant/dashboard', { 'x-timezone': 'Asia/Kolkata' })).json()
      .data as Dashboard;
    expect(theirs.series.collection!.every((p) => p.order_count === 0)).toBe(true);
    expect(theirs.series.payout!.every((p) => p.order_count === 0)).toBe(true);
  });
});
