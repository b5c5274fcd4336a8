import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_NO, DEMO_PASSWORD, seedDemo } from '../../src/modules/demo/index.ts';
import { trialBalance, verifyLedger } from '../../src/modules/ledger/index.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Each test has its own database, so either runs alone (vitest -t).
let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

describe('the demo merchant', () => {
  it('starts with five weeks of fund flow posted through the ledger, a frozen amount and a settled batch', async () => {
    expect(await seedDemo(ctx.database.db, { appKey: ctx.config.appKey })).toBe(true);
    const finance = await loginAs(ctx.app, 'finance@demo.paydesk.test', DEMO_PASSWORD);

    // Live mode: the operator's transfers (149,789.24 available, 5,000.00 frozen) - withdrawals at 7.1:
    // 3,550.00 paid (500 USDT, free), 575.10 and 362.10 held, 862.65 given back.
    const balance = (await finance.get('/api/merchant/balance')).json().data;
    // And the live bank channels' three payouts waiting for the operator's batch: 3,292.75 held.
    expect(balance).toEqual({
      total: '151239.24',
      available: '142009.29',
      locked: '9229.95',
      currency: 'CNY',
    });
    // Test mode (DESIGN 12: the sandbox's history): 100,000.00 of test funds + the settled batch (830.95
    // gross - 12.46 fees) - payouts: 121.96 + 40.17 + 11.07 captured, 9.99 refunded; 77.61 and 5.59 still held;
    // - refunds of the settled orders (DESIGN 14): 42.66 out (a third of 128.00); 4.59 held and given back.
    const TEST = { 'x-mode': 'test' };
    const testBalance = (await finance.get('/api/merchant/balance', TEST)).json().data;
    expect(testBalance).toEqual({
      total: '100612.62',
      available: '100529.42',
      locked: '83.20',
      currency: 'CNY',
    });

    const list = (await finance.get('/api/merchant/fund-flows?per_page=100')).json();
    const testList = (await finance.get('/api/merchant/fund-flows?per_page=100', TEST)).json();
    expect(list.meta).toMatchObject({
      mode: 'live',
      total: 30,
      sums: { money_in: '172882.64', money_out: '30873.35' },
    });
    expect(testList.meta).toMatchObject({
      mode: 'test',
      total: 15,
      sums: { money_in: '100900.59', money_out: '371.17' },
    });
    expect(new Set(list.data.map((e: { type: string }) => e.type))).toEqual(
      new Set([
        'transfer_in',
        'transfer_out',
        'funds_frozen',
        'withdrawal',
        'withdrawal_rejected',
        'payout_deduction',
      ]),
    );
    expect(new Set(testList.data.map((e: { type: string }) => e.type))).toEqual(
      new Set([
        'transfer_in',
        'collection_settlement',
        'payout_deduction',
        'payout_refund',
        'refund',
        'refund_reversal',
      ]),
    );
    // Newest first, the newest from yesterday, the oldest five weeks back, each with an operator reference.
    const times = list.data.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Date.now() - times[0]).toBeLessThan(2 * 86_400_000);
    expect(Date.now() - times.at(-1)).toBeGreaterThan(34 * 86_400_000);
    // Test funds have no reference: they are no operator's action and no order.
    expect(
      [...list.data, ...testList.data].every((e: { ref_no: string | null; ref_type: string }) =>
        e.ref_type === 'test_funds'
          ? e.ref_no === null
          : /^(OA\d{8}|S\d{22}|P\d{23}|W\d{23}|R\d{23})$/.test(e.ref_no ?? ''),
      ),
    ).toBe(true);
    expect(list.data[0].available_after).toBe(balance.available);
    expect(testList.data[0].available_after).toBe(testBalance.available);

    expect((await verifyLedger(ctx.database.db, DEMO_MERCHANT_NO)).ok).toBe(true);
    // The books balance: operator transfers, the channel's clearing and our fees against the merchants.
    const books = await trialBalance(ctx.database.db);
    expect(books.balanced).toBe(true);
    // Each mode's books apart (DESIGN 12): live has the operator's transfers and the withdrawals paid;
    // test its own operator account (the test funds), the sandbox channels' clearing and its fees.
    const cny = (mode: string) => books.currencies.find((c) => c.currency === 'CNY' && c.mode === mode)!;
    expect(cny('live').accounts).toEqual([
      {
        code: 'operator_adjustments:CNY',
        kind: 'operator_adjustments',
        channel: null,
        balance: '-154789.24',
      },
      { code: 'withdrawals_payable:CNY', kind: 'withdrawals_payable', channel: null, balance: '3550.00' },
    ]);
    expect(cny('live')).toMatchObject({
      merchants: { available: '142009.29', locked: '9229.95', count: 1 },
      total: '0.00',
    });
    expect(cny('test').accounts).toEqual([
      {
        code: 'test:channel_clearing:sandbox-pay:CNY',
        kind: 'channel_clearing',
        channel: 'sandbox-pay',
        balance: '158.86',
      },
      {
        code: 'test:channel_clearing:sandbox:CNY',
        kind: 'channel_clearing',
        channel: 'sandbox',
        // The settled batch's gross, less the refund that went back to its payer through the channel.
        balance: '-788.29',
      },
      { code: 'test:fee_revenue:CNY', kind: 'fee_revenue', channel: null, balance: '16.81' },
      {
        code: 'test:operator_adjustments:CNY',
        kind: 'operator_adjustments',
        channel: null,
        balance: '-100000.00',
      },
    ]);
    expect(cny('test')).toMatchObject({
      merchants: { available: '100529.42', locked: '83.20', count: 1 },
      total: '0.00',
    });
    expect(books.currencies.map((c) => `${c.mode} ${c.currency}`).sort()).toEqual([
      'live BRL',
      'live CNY',
      'live INR',
      'live VND',
      'test BRL',
      'test CNY',
      'test INR',
      'test VND',
    ]);
  });

  it('gives a merchant in each currency open channels, a key for this machine and orders in every state', async () => {
    expect(await seedDemo(ctx.database.db, { appKey: ctx.config.appKey })).toBe(true);
    for (const [email, currency] of [
      ['root@demo.paydesk.test', 'CNY'],
      ['root@inr.demo.paydesk.test', 'INR'],
      ['root@brl.demo.paydesk.test', 'BRL'],
      ['root@vnd.demo.paydesk.test', 'VND'],
    ]) {
      const root = await loginAs(ctx.app, email, DEMO_PASSWORD);
      // The sandbox history is test mode's (DESIGN 12). Live mode has the live channels of DESIGN 13, so
      // the console opens in live mode: the bank transfer channel's orders (two paid by the bank's
      // notification, three waiting) and payouts waiting for the operator's batch; the INR merchant's
      // Razorpay channel on the demo's stand-in adds one order paid and one waiting for its payer.
      const razorpayDemo = currency === 'INR';
      expect((await root.get('/api/merchant/user')).json().data.merchant.default_mode).toBe('live');
      const live = (await root.get('/api/merchant/collections')).json();
      expect(live.meta).toMatchObject({ mode: 'live', total: razorpayDemo ? 7 : 5 });
      expect(live.data.map((o: { status: string }) => o.status).sort()).toEqual(
        razorpayDemo
          ? ['paid', 'paid', 'paid', 'to_be_paid', 'to_be_paid', 'to_be_paid', 'to_be_paid']
          : ['paid', 'paid', 'to_be_paid', 'to_be_paid', 'to_be_paid'],
      );
      expect(
        (await root.get('/api/merchant/payouts')).json().data.map((p: { status: string }) => p.status),
      ).toEqual(['pending', 'pending', 'pending']);
      const get = (url: string) => root.get(url, { 'x-mode': 'test' });
      const orders = (await get('/api/merchant/collections?per_page=100')).json();
      expect(new Set(orders.data.map((o: { status: string }) => o.status))).toEqual(
        new Set(['to_be_paid', 'paid', 'closed', 'failed']),
      );
      expect(new Set(orders.data.map((o: { settlement_status: string }) => o.settlement_status))).toEqual(
        new Set(['unsettled', 'settled']),
      );
      expect(orders.data.every((o: { currency: string }) => o.currency === currency)).toBe(true);
      const payouts = (await get('/api/merchant/payouts?per_page=100')).json();
      expect(new Set(payouts.data.map((p: { status: string }) => p.status))).toEqual(
        new Set(['success', 'failed', 'refund_received', 'rejected', 'processing', 'pending']),
      );
      expect((await get('/api/merchant/payout-channels')).json().data.channels).toHaveLength(1);
      const settlements = (await get('/api/merchant/settlements')).json();
      expect(settlements.data).toHaveLength(1);
      expect((await root.get('/api/merchant/access-key?mode=test')).json().data).toMatchObject({
        mode: 'test',
        merchant_no: expect.any(String),
        access_key: expect.stringMatching(/^test_/),
      });
      expect((await root.get('/api/merchant/access-key')).json().data).toBeNull();
      expect((await root.get('/api/merchant/ip-address')).json().data.ips).toEqual(['127.0.0.1', '::1']);
    }
  });

  it('seeds only an empty database', async () => {
    expect(await seedDemo(ctx.database.db, { appKey: ctx.config.appKey })).toBe(true);
    expect(await seedDemo(ctx.database.db, { appKey: ctx.config.appKey })).toBe(false);
    const report = await verifyLedger(ctx.database.db);
    // Each merchant's live row and test twin.
    expect(report).toMatchObject({
      ok: true,
      merchants_checked: 8,
      modes: [
        // M100001's operator history; each merchant's three live payout holds, and the live transfers-in
        // of those with no live money before.
        { mode: 'live', merchants_checked: 4, entries_checked: 43 },
        // Each twin's starting test funds, and its sandbox history (with a refund that left and one
        // that came back: four entries each).
        { mode: 'test', merchants_checked: 4, entries_checked: 76 },
      ],
    });
  });
});
