import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { collections, payouts, receivedPayments } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { DEMO_PAYEES } from '../../src/modules/payouts/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { type RazorpayStandIn, startRazorpayStandIn } from '../helpers/razorpay-stand-in.ts';
import { opsPost } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The razorpay adapter against a local stand-in of Razorpay's API (test/helpers/razorpay-stand-in.ts
// cites the documentation each answer follows): collections by Payment Links, payouts by RazorpayX with
// X-Payout-Idempotency, notifications verified with X-Razorpay-Signature (one of them twice), status
// queries for orders whose notification never came, and the stand-in's errors, timeouts, lost answers and
// answers of another shape. Jobs are run here one step at a time, as the worker would.

let ctx: TestContext;
let db: Db;
let token: string;
let m: GatewayMerchant;
let rzp: RazorpayStandIn;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const WEBHOOK_SECRET = 'whsec-standin-0123456789abcdef';

const opsCall = (url: string, body: unknown) => opsPost(ctx.app, token, url, body);

const run = (queue: 'razorpay.collect' | 'razorpay.payout' | 'razorpay.query', tradeNo: string) =>
  ctx.app.services.channelJobs.run(queue, { trade_no: tradeNo });

const notify = (event: string, payload: Record<string, unknown>, secret = WEBHOOK_SECRET) => {
  const { body, signature } = rzp.webhook(secret, event, payload);
  return ctx.app.inject({
    method: 'POST',
    url: '/channels/rzp/notify',
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    payload: body,
  });
};

const order = async (tradeNo: string) =>
  (await db.select().from(collections).where(eq(collections.tradeNo, tradeNo)))[0];
const payout = async (tradeNo: string) =>
  (await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNo)))[0];

async function newOrder(outTradeNo: string, amount = '499.00') {
  const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: outTradeNo, amount, channel: 'rzp' },
    now,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data.trade_no as string;
}

async function newPayout(outTradeNo: string, amount = '250.00') {
  const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: { out_trade_no: outTradeNo, amount, channel: 'rzp-pay', ...DEMO_PAYEES.INR },
    now,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data.trade_no as string;
}

const linkPayload = (
  tradeNo: string,
  linkId: string,
  payment: { payment_id: string; amount: number; created_at: number },
) => ({
  payment_link: {
    entity: {
      id: linkId,
      reference_id: tradeNo,
      status: 'paid',
      currency: 'INR',
      amount_paid: payment.amount,
    },
  },
  payment: {
    entity: {
      id: payment.payment_id,
      amount: payment.amount,
      currency: 'INR',
      status: 'captured',
      created_at: payment.created_at,
    },
  },
  order: { entity: { id: 'order_StandIn0001', amount: payment.amount, status: 'paid' } },
});

beforeAll(async () => {
  rzp = await startRazorpayStandIn();
  ctx = await createTestApp({}, { now });
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  m = await createGatewayMerchant(db, ctx.config.appKey, {
    currency: 'INR',
    channel: false,
    notifyUrl: 'https://merchant.example/notify',
  });
  const settings = {
    base_url: rzp.url,
    key_id: rzp.keyId,
    account_number: '7878780080316316',
    timeout_ms: 1000,
  };
  const secrets = { key_secret: rzp.keySecret, webhook_secret: WEBHOOK_SECRET };
  for (const [code, kind] of [
    ['rzp', 'collection'],
    ['rzp-pay', 'payout'],
  ] as const) {
    const opened = await opsCall('/ops/v1/channels/open', {
      merchant: m.merchant.no,
      provider: 'razorpay',
      settings,
      secrets,
      code,
      kind,
      country: 'IN',
      fee_rate: '2',
      min_amount: '1.00',
      max_amount: '100000.00',
      expiry_minutes: 60,
      reason: 'razorpay live account',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json().data.generated_secrets).toBeUndefined();
  }
  await fundMerchant(db, m.merchant.id, 1_000_000n);
});
afterAll(async () => {
  await ctx.close();
  await rzp.close();
});

describe('collections by Payment Links', () => {
  it('our page waits for the link, then sends the payer to it; the paid notification pays the order once', async () => {
    const tradeNo = await newOrder('rzp-1');
    const waiting = await ctx.app.inject({ method: 'GET', url: `/pay/${tradeNo}` });
    expect(waiting.body).toContain('http-equiv="refresh"');

    await run('razorpay.collect', tradeNo);
    const created = rzp.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_links')!;
    expect(created.body).toMatchObject({
      amount: 49_900,
      currency: 'INR',
      reference_id: tradeNo,
      expire_by: expect.any(Number),
    });
    const link = [...rzp.links.values()].find((l) => l.reference_id === tradeNo)!;
    const page = await ctx.app.inject({ method: 'GET', url: `/pay/${tradeNo}` });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(link.short_url);
    expect((await order(tradeNo)).channelRef).toBe(link.id);

    const payment = rzp.pay(link.id);
    const first = await notify('payment_link.paid', linkPayload(tradeNo, link.id, payment));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ matched: 1 });
    expect((await order(tradeNo)).status).toBe('paid');
    // Razorpay delivers a webhook more than once (its best practices say so): the second changes nothing.
    const second = await notify('payment_link.paid', linkPayload(tradeNo, link.id, payment));
    expect(second.json().data).toMatchObject({ matched: 0, seen: 1 });
  });

  it('refuses a notification with a bad signature: 401, nothing changes', async () => {
    const tradeNo = await newOrder('rzp-forged');
    await run('razorpay.collect', tradeNo);
    const link = [...rzp.links.values()].find((l) => l.reference_id === tradeNo)!;
    const response = await notify(
      'payment_link.paid',
      linkPayload(tradeNo, link.id, { payment_id: 'pay_Forged001', amount: 49_900, created_at: 1 }),
      'not-the-webhook-secret',
    );
    expect(response.statusCode).toBe(401);
    expect((await order(tradeNo)).status).toBe('to_be_paid');
  });

  it('a link paid whose notification never came is found by the status query', async () => {
    const tradeNo = await newOrder('rzp-quiet');
    await run('razorpay.collect', tradeNo);
    const link = [...rzp.links.values()].find((l) => l.reference_id === tradeNo)!;
    await run('razorpay.query', tradeNo);
    expect((await order(tradeNo)).status).toBe('to_be_paid');
    rzp.pay(link.id);
    await run('razorpay.query', tradeNo);
    expect((await order(tradeNo)).status).toBe('paid');
  });

  it('a timeout leaves the order as it was and the retry makes one link; a lost answer is found by its reference', async () => {
    const tradeNo = await newOrder('rzp-timeout');
    rzp.failNext('hang', '/v1/payment_links');
    await expect(run('razorpay.collect', tradeNo)).rejects.toThrow(/did not answer/);
    expect(await order(tradeNo)).toMatchObject({ status: 'to_be_paid', channelRef: null });
    await run('razorpay.collect', tradeNo);
    expect([...rzp.links.values()].filter((l) => l.reference_id === tradeNo)).toHaveLength(1);

    const lost = await newOrder('rzp-lost');
    rzp.failNext('lose_answer', '/v1/payment_links');
    await expect(run('razorpay.collect', lost)).rejects.toThrow(/did not answer/);
    await run('razorpay.collect', lost);
    const made = [...rzp.links.values()].filter((l) => l.reference_id === lost);
    expect(made).toHaveLength(1);
    expect((await order(lost)).channelRef).toBe(made[0].id);
  });

  it('an answer of another shape leaves the order as it was; a refusal fails it', async () => {
    const odd = await newOrder('rzp-odd');
    rzp.failNext('odd_shape', '/v1/payment_links');
    await run('razorpay.collect', odd);
    expect(await order(odd)).toMatchObject({ status: 'to_be_paid', channelRef: null });

    const refused = await newOrder('rzp-refused');
    rzp.failNext('bad_request', '/v1/payment_links', 'POST');
    await run('razorpay.collect', refused);
    expect((await order(refused)).status).toBe('failed');
  });

  it('a payment for an order we timed out is kept for review, never lost', async () => {
    const tradeNo = await newOrder('rzp-late');
    await run('razorpay.collect', tradeNo);
    const link = [...rzp.links.values()].find((l) => l.reference_id === tradeNo)!;
    clock = new Date(clock.getTime() + 61 * 60_000);
    await ctx.app.services.collections.expireOverdue();
    expect((await order(tradeNo)).status).toBe('closed');
    const payment = rzp.pay(link.id);
    const response = await notify('payment_link.paid', linkPayload(tradeNo, link.id, payment));
    expect(response.json().data).toMatchObject({ review: 1 });
    const [kept] = await db
      .select()
      .from(receivedPayments)
      .where(eq(receivedPayments.txnId, payment.payment_id));
    expect(kept).toMatchObject({ status: 'review', problem: 'not_payable' });
    expect((await order(tradeNo)).status).toBe('closed');
  });
});

describe('payouts by RazorpayX', () => {
  it('sends the payout once with its idempotency key, even when the first answer is lost', async () => {
    const tradeNo = await newPayout('rzpx-1');
    rzp.failNext('lose_answer', '/v1/payouts');
    await expect(run('razorpay.payout', tradeNo)).rejects.toThrow(/did not answer/);
    expect((await payout(tradeNo)).status).toBe('pending');
    await run('razorpay.payout', tradeNo);
    const calls = rzp.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/payouts' && r.idempotency === tradeNo,
    );
    expect(calls).toHaveLength(2);
    expect([...rzp.payouts.values()].filter((p) => p.reference_id === tradeNo)).toHaveLength(1);
    expect(calls[0].body).toMatchObject({
      account_number: '7878780080316316',
      amount: 25_000,
      currency: 'INR',
      mode: 'IMPS',
      reference_id: tradeNo,
      fund_account: {
        account_type: 'bank_account',
        bank_account: { ifsc: 'SBIN0001234', account_number: '123456789012', name: 'Priya Sharma' },
      },
    });
    const row = await payout(tradeNo);
    expect(row.status).toBe('processing');
    expect(row.channelRef).toMatch(/^pout_/);

    // processed, notified twice: success once.
    const entity = rzp.settle(row.channelRef!, 'processed');
    for (const _ of [1, 2])
      expect((await notify('payout.processed', { payout: { entity } })).statusCode).toBe(200);
    expect((await payout(tradeNo)).status).toBe('success');
  });

  it('a payout reversed by the bank fails and gives the hold back; one never notified is asked about', async () => {
    const before = (await balanceRow(db, m.merchant.id))!;
    const reversed = await newPayout('rzpx-2', '100.00');
    await run('razorpay.payout', reversed);
    const entity = rzp.settle(
      (await payout(reversed)).channelRef!,
      'reversed',
      'Beneficiary account is closed',
    );
    await notify('payout.reversed', { payout: { entity } });
    expect(await payout(reversed)).toMatchObject({
      status: 'failed',
      failureReason: 'Beneficiary account is closed',
    });
    expect((await balanceRow(db, m.merchant.id))!.availableMinor).toBe(before.availableMinor);

    const quiet = await newPayout('rzpx-3', '75.00');
    await run('razorpay.payout', quiet);
    await run('razorpay.query', quiet);
    expect((await payout(quiet)).status).toBe('processing');
    rzp.settle((await payout(quiet)).channelRef!, 'processed');
    await run('razorpay.query', quiet);
    expect((await payout(quiet)).status).toBe('success');
  });

  it('a processed notification for a payout whose answer was lost still ends it', async () => {
    const tradeNo = await newPayout('rzpx-5', '60.00');
    rzp.failNext('lose_answer', '/v1/payouts');
    await expect(run('razorpay.payout', tradeNo)).rejects.toThrow(/did not answer/);
    expect((await payout(tradeNo)).status).toBe('pending');
    const entity = rzp.settle(
      [...rzp.payouts.values()].find((p) => p.reference_id === tradeNo)!.id,
      'processed',
    );
    expect((await notify('payout.processed', { payout: { entity } })).statusCode).toBe(200);
    expect((await payout(tradeNo)).status).toBe('success');
    // The retry of the lost call finds it ended and sends nothing.
    await run('razorpay.payout', tradeNo);
    expect(rzp.requests.filter((r) => r.idempotency === tradeNo)).toHaveLength(1);
  });

  it('a payout Razorpay refuses fails at once with its reason', async () => {
    const tradeNo = await newPayout('rzpx-4');
    rzp.failNext('bad_request', '/v1/payouts');
    await run('razorpay.payout', tradeNo);
    expect(await payout(tradeNo)).toMatchObject({
      status: 'failed',
      failureReason: 'Razorpay: The request was refused by the stand-in.',
    });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe('payouts whose jobs gave up (Razorpay down longer than their retries)', () => {
  /** pg-boss gave up on the payout's jobs: their retries ran out. */
  const retriesRanOut = (tradeNo: string) =>
    db.execute(
      sql`update pgboss.job set state = 'failed'
           where name like 'razorpay.%' and data->>'trade_no' = ${tradeNo}`,
    );
  const waitingJobs = (tradeNo: string) =>
    queryRows<{ name: string }>(
      db,
      sql`select name from pgboss.job
           where data->>'trade_no' = ${tradeNo} and state = 'created' order by created_on`,
    );

  it('a pending one is sent again with its idempotency key, a processing one asked about, by housekeeping', async () => {
    const before = (await balanceRow(db, m.merchant.id))!;
    const tradeNo = await newPayout('rzpx-stuck', '40.00');
    rzp.failNext('lose_answer', '/v1/payouts');
    await expect(run('razorpay.payout', tradeNo)).rejects.toThrow(/did not answer/);
    await retriesRanOut(tradeNo);
    expect((await payout(tradeNo)).status).toBe('pending');
    clock = new Date(clock.getTime() + 31 * 60_000);
    await ctx.app.services.housekeeping();
    expect(await waitingJobs(tradeNo)).toEqual([{ name: 'razorpay.payout' }]);
    await ctx.app.services.housekeeping();
    expect(await waitingJobs(tradeNo)).toHaveLength(1);
    // The same X-Payout-Idempotency: Razorpay answers the payout it made; one payout there.
    await run('razorpay.payout', tradeNo);
    expect(await payout(tradeNo)).toMatchObject({ status: 'processing' });
    expect([...rzp.payouts.values()].filter((p) => p.reference_id === tradeNo)).toHaveLength(1);

    // Its query gives up in turn: the sweep asks about it by Razorpay's id, and the bank's answer ends it.
    await retriesRanOut(tradeNo);
    clock = new Date(clock.getTime() + 31 * 60_000);
    await ctx.app.services.housekeeping();
    expect(await waitingJobs(tradeNo)).toEqual([{ name: 'razorpay.query' }]);
    rzp.settle((await payout(tradeNo)).channelRef!, 'processed');
    await run('razorpay.query', tradeNo);
    expect((await payout(tradeNo)).status).toBe('success');
    expect((await balanceRow(db, m.merchant.id))!.availableMinor).toBeLessThan(before.availableMinor);
    await retriesRanOut(tradeNo);
    await ctx.app.services.housekeeping();
    expect(await waitingJobs(tradeNo)).toEqual([]);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});
