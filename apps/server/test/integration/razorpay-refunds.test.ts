import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../src/db/client.ts';
import { channels, collections, refunds } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { opsPost } from '../helpers/ops.ts';
import { type RazorpayStandIn, startRazorpayStandIn } from '../helpers/razorpay-stand-in.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Refunds of paid Razorpay orders (DESIGN 14) through Razorpay's Refunds API, against the local stand-in
// (test/helpers/razorpay-stand-in.ts): processed at once, pending then ended by the later query, failed at
// the bank, refused (400), a lost answer retried with X-Refund-Idempotency (one refund at Razorpay), and
// Razorpay down (the refund stays processing, its hold kept). Jobs run here one step at a time.

let ctx: TestContext;
let db: Db;
let m: GatewayMerchant;
let rzp: RazorpayStandIn;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const WEBHOOK_SECRET = 'whsec-standin-refunds-0123456789';

const call = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) =>
  gatewayCall(ctx.app, m, method, path, { body, now });

const runRefund = (data: Record<string, string>) => ctx.app.services.channelJobs.run('razorpay.refund', data);

const balance = async () =>
  (await call('GET', '/gateway/v1/balance')).json().data as { available: string; locked: string };

const refundOf = async (refundNo: string) =>
  (await call('GET', `/gateway/v1/refunds/${refundNo}`)).json().data;
const refundRow = async (refundNo: string) =>
  (await db.select().from(refunds).where(eq(refunds.refundNo, refundNo)))[0];

/** An order paid by its Payment Link, as the payment_link.paid webhook reports it. */
async function paidOrder(outTradeNo: string, amount = '500.00') {
  const made = await call('POST', '/gateway/v1/collections', {
    out_trade_no: outTradeNo,
    amount,
    channel: 'rzp',
  });
  expect(made.statusCode, made.body).toBe(201);
  const tradeNo = made.json().data.trade_no as string;
  await ctx.app.services.channelJobs.run('razorpay.collect', { trade_no: tradeNo });
  const link = [...rzp.links.values()].find((l) => l.reference_id === tradeNo)!;
  const payment = rzp.pay(link.id);
  const { body, signature } = rzp.webhook(WEBHOOK_SECRET, 'payment_link.paid', {
    payment_link: { entity: { id: link.id, reference_id: tradeNo, status: 'paid', currency: 'INR' } },
    payment: {
      entity: {
        id: payment.payment_id,
        amount: payment.amount,
        currency: 'INR',
        status: 'captured',
        created_at: payment.created_at,
      },
    },
  });
  const notified = await ctx.app.inject({
    method: 'POST',
    url: '/channels/rzp/notify',
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    payload: body,
  });
  expect(notified.json().data).toMatchObject({ matched: 1 });
  const row = (await db.select().from(collections).where(eq(collections.tradeNo, tradeNo)))[0];
  expect(row).toMatchObject({ status: 'paid', channelRef: payment.payment_id });
  return { tradeNo, paymentId: payment.payment_id, linkId: link.id };
}

async function newRefund(tradeNo: string, outRefundNo: string, amount: string) {
  const made = await call('POST', `/gateway/v1/collections/${tradeNo}/refunds`, {
    out_refund_no: outRefundNo,
    amount,
  });
  expect(made.statusCode, made.body).toBe(201);
  expect(made.json().data.status).toBe('processing');
  return made.json().data.refund_no as string;
}

/** The refunds the stand-in holds for our refund number (its receipt). */
const atRazorpay = (refundNo: string) => [...rzp.refunds.values()].filter((r) => r.receipt === refundNo);

const minor = (amount: string) => Math.round(Number(amount) * 100);

beforeAll(async () => {
  rzp = await startRazorpayStandIn();
  ctx = await createTestApp({}, { now });
  db = ctx.database.db;
  const token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  m = await createGatewayMerchant(db, ctx.config.appKey, { currency: 'INR', channel: false });
  const opened = await opsPost(ctx.app, token, '/ops/v1/channels/open', {
    merchant: m.merchant.no,
    provider: 'razorpay',
    settings: { base_url: rzp.url, key_id: rzp.keyId, timeout_ms: 1000 },
    secrets: { key_secret: rzp.keySecret, webhook_secret: WEBHOOK_SECRET },
    code: 'rzp',
    kind: 'collection',
    country: 'IN',
    fee_rate: '2',
    min_amount: '1.00',
    max_amount: '100000.00',
    expiry_minutes: 60,
    reason: 'razorpay account',
  });
  expect(opened.statusCode, opened.body).toBe(201);
  await fundMerchant(db, m.merchant.id, 1_000_000n);
});
afterAll(async () => {
  await ctx.close();
  await rzp.close();
});

describe('refunds through Razorpay', () => {
  it('refunds part of a paid order: one refund of its payment at Razorpay, succeeded with its rfnd id', async () => {
    const { tradeNo, paymentId } = await paidOrder('rzp-rf-1');
    const before = await balance();
    const refundNo = await newRefund(tradeNo, 'RZ-RF-1', '120.00');
    // Held from available at once.
    const held = await balance();
    expect(minor(held.available)).toBe(minor(before.available) - 12_000);
    expect(minor(held.locked)).toBe(minor(before.locked) + 12_000);

    await runRefund({ refund_no: refundNo });
    const sent = rzp.requests.filter((r) => r.path === `/v1/payments/${paymentId}/refund`);
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        idempotency: refundNo,
        body: {
          amount: 12_000,
          speed: 'normal',
          receipt: refundNo,
          notes: { refund_no: refundNo, trade_no: tradeNo },
        },
      }),
    ]);
    const [made] = atRazorpay(refundNo);
    expect(made).toMatchObject({ payment_id: paymentId, amount: 12_000, status: 'processed' });
    expect(await refundOf(refundNo)).toMatchObject({ status: 'succeeded', finished_at: clock.toISOString() });
    expect((await refundRow(refundNo)).channelRef).toBe(made.id);
    // The hold left the account: available stays down, locked is back, the total is down by the refund.
    expect(await balance()).toMatchObject({ available: held.available, locked: before.locked });

    // The job again (pg-boss may run it twice): nothing more reaches Razorpay.
    await runRefund({ refund_no: refundNo });
    expect(rzp.requests.filter((r) => r.path === `/v1/payments/${paymentId}/refund`)).toHaveLength(1);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('a pending refund is asked about later by its id and ends on that query', async () => {
    const { tradeNo } = await paidOrder('rzp-rf-pending');
    const refundNo = await newRefund(tradeNo, 'RZ-RF-P', '50.00');
    rzp.nextRefund('pending');
    await runRefund({ refund_no: refundNo });
    expect((await refundOf(refundNo)).status).toBe('processing');
    const [made] = atRazorpay(refundNo);
    // The follow-up query is queued, later, with Razorpay's id.
    const queued = async () =>
      queryRows<{ refund_id: string; round: string; after_ms: number }>(
        db,
        sql`select data->>'refund_id' as refund_id, data->>'round' as round,
                   (extract(epoch from start_after) * 1000 - ${clock.getTime()})::int as after_ms
            from pgboss.job
            where name = 'razorpay.refund' and data->>'refund_no' = ${refundNo} and data ? 'refund_id'
            order by created_on`,
      );
    expect(await queued()).toEqual([{ refund_id: made.id, round: '0', after_ms: 5 * 60_000 }]);

    // Still pending at the query: asked again, later each time.
    await runRefund({ refund_no: refundNo, refund_id: made.id, round: '0' });
    expect((await refundOf(refundNo)).status).toBe('processing');
    expect((await queued())[1]).toEqual({ refund_id: made.id, round: '1', after_ms: 10 * 60_000 });
    rzp.settleRefund(made.id, 'processed');
    await runRefund({ refund_no: refundNo, refund_id: made.id, round: '1' });
    expect(await refundOf(refundNo)).toMatchObject({ status: 'succeeded' });
    expect((await refundRow(refundNo)).channelRef).toBe(made.id);
    expect(rzp.requests.filter((r) => r.path === `/v1/refunds/${made.id}`)).toHaveLength(2);
    expect(atRazorpay(refundNo)).toHaveLength(1);
  });

  it('a refund Razorpay refuses (400) ends failed with its description and gives the money back', async () => {
    const { tradeNo } = await paidOrder('rzp-rf-refused', '80.00');
    const before = await balance();
    const refundNo = await newRefund(tradeNo, 'RZ-RF-R', '80.00');
    rzp.failNext('bad_request', '/v1/payments/', 'POST');
    await runRefund({ refund_no: refundNo });
    expect(await refundOf(refundNo)).toMatchObject({
      status: 'failed',
      failure_reason: 'Razorpay: The request was refused by the stand-in.',
    });
    expect(atRazorpay(refundNo)).toHaveLength(0);
    expect(await balance()).toEqual(before);
    // The order's whole amount can be refunded again.
    const again = await newRefund(tradeNo, 'RZ-RF-R2', '80.00');
    await runRefund({ refund_no: again });
    expect((await refundOf(again)).status).toBe('succeeded');
  });

  it('a refund failed at the bank ends failed and gives the money back', async () => {
    const { tradeNo } = await paidOrder('rzp-rf-failed');
    const before = await balance();
    const refundNo = await newRefund(tradeNo, 'RZ-RF-F', '10.00');
    rzp.nextRefund('pending');
    await runRefund({ refund_no: refundNo });
    const [made] = atRazorpay(refundNo);
    rzp.settleRefund(made.id, 'failed');
    await runRefund({ refund_no: refundNo, refund_id: made.id });
    expect(await refundOf(refundNo)).toMatchObject({
      status: 'failed',
      failure_reason: 'Razorpay: the refund failed at the bank.',
    });
    expect(await balance()).toEqual(before);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('a lost answer is retried with the same X-Refund-Idempotency: one refund at Razorpay', async () => {
    const { tradeNo, paymentId } = await paidOrder('rzp-rf-lost');
    const refundNo = await newRefund(tradeNo, 'RZ-RF-L', '70.00');
    rzp.failNext('lose_answer', '/v1/payments/');
    await expect(runRefund({ refund_no: refundNo })).rejects.toThrow(/did not answer/);
    expect((await refundOf(refundNo)).status).toBe('processing');
    // Razorpay made it; the retry gets that one back.
    expect(atRazorpay(refundNo)).toHaveLength(1);
    await runRefund({ refund_no: refundNo });
    expect(atRazorpay(refundNo)).toHaveLength(1);
    expect(rzp.requests.filter((r) => r.path === `/v1/payments/${paymentId}/refund`)).toHaveLength(2);
    expect((await refundRow(refundNo)).channelRef).toBe(atRazorpay(refundNo)[0].id);
    expect((await refundOf(refundNo)).status).toBe('succeeded');
  });

  it('Razorpay down (a 5xx, no connection) leaves the refund processing with its hold; the retry ends it', async () => {
    const { tradeNo } = await paidOrder('rzp-rf-down');
    const refundNo = await newRefund(tradeNo, 'RZ-RF-D', '25.00');
    const held = await balance();
    rzp.failNext('server_error', '/v1/payments/');
    await expect(runRefund({ refund_no: refundNo })).rejects.toThrow(/did not answer/);
    expect((await refundOf(refundNo)).status).toBe('processing');

    // No connection at all: the channel's base address points at a port nothing listens on.
    const [channel] = await db.select().from(channels).where(eq(channels.merchantId, m.merchant.id));
    const settings = channel.settings as Record<string, unknown>;
    await db
      .update(channels)
      .set({ settings: { ...settings, base_url: 'http://127.0.0.1:9' } })
      .where(eq(channels.id, channel.id));
    await expect(runRefund({ refund_no: refundNo })).rejects.toThrow(/did not answer/);
    await db.update(channels).set({ settings }).where(eq(channels.id, channel.id));
    expect((await refundOf(refundNo)).status).toBe('processing');
    expect(await balance()).toEqual(held);
    expect(atRazorpay(refundNo)).toHaveLength(0);

    await runRefund({ refund_no: refundNo });
    expect((await refundOf(refundNo)).status).toBe('succeeded');
  });

  it('the refund.processed and refund.failed webhooks end a pending refund, once', async () => {
    const { tradeNo, paymentId } = await paidOrder('rzp-rf-hook');
    const before = await balance();
    const notifyRefund = (event: string, refund: Record<string, unknown>) => {
      const { body, signature } = rzp.webhook(WEBHOOK_SECRET, event, {
        refund: { entity: refund },
        payment: {
          entity: { id: paymentId, amount: 50_000, currency: 'INR', status: 'captured', created_at: 1 },
        },
      });
      return ctx.app.inject({
        method: 'POST',
        url: '/channels/rzp/notify',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
        payload: body,
      });
    };
    const processed = await newRefund(tradeNo, 'RZ-RF-H1', '40.00');
    const failed = await newRefund(tradeNo, 'RZ-RF-H2', '30.00');
    rzp.nextRefund('pending');
    rzp.nextRefund('pending');
    await runRefund({ refund_no: processed });
    await runRefund({ refund_no: failed });
    const [one] = atRazorpay(processed);
    const [two] = atRazorpay(failed);

    for (let i = 0; i < 2; i++) {
      // Razorpay may deliver a webhook twice: the second changes nothing.
      const first = await notifyRefund('refund.processed', { ...rzp.settleRefund(one.id, 'processed') });
      expect(first.statusCode, first.body).toBe(200);
      const second = await notifyRefund('refund.failed', { ...rzp.settleRefund(two.id, 'failed') });
      expect(second.statusCode, second.body).toBe(200);
    }
    expect(await refundOf(processed)).toMatchObject({ status: 'succeeded' });
    expect((await refundRow(processed)).channelRef).toBe(one.id);
    expect(await refundOf(failed)).toMatchObject({
      status: 'failed',
      failure_reason: 'Razorpay: the refund failed at the bank.',
    });
    // Only the processed refund left the balance.
    expect(minor((await balance()).available)).toBe(minor(before.available) - 4_000);
    // The query queued for later finds them ended and does nothing.
    await runRefund({ refund_no: processed, refund_id: one.id, round: '0' });
    expect(rzp.requests.filter((r) => r.path === `/v1/refunds/${one.id}`)).toHaveLength(0);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('an order that kept only its link id is refunded through the link’s captured payment', async () => {
    const { tradeNo, paymentId, linkId } = await paidOrder('rzp-rf-link');
    await db.update(collections).set({ channelRef: linkId }).where(eq(collections.tradeNo, tradeNo));
    const refundNo = await newRefund(tradeNo, 'RZ-RF-K', '15.00');
    await runRefund({ refund_no: refundNo });
    expect(atRazorpay(refundNo)).toEqual([expect.objectContaining({ payment_id: paymentId, amount: 1_500 })]);
    expect((await refundOf(refundNo)).status).toBe('succeeded');
  });
});

describe('a refund whose jobs gave up (Razorpay down longer than their retries)', () => {
  /** pg-boss gave up on the refund's jobs: their retries ran out. */
  const retriesRanOut = (refundNo: string) =>
    db.execute(
      sql`update pgboss.job set state = 'failed'
           where name like 'razorpay.%' and data->>'refund_no' = ${refundNo}`,
    );
  const waitingJobs = async (refundNo: string) =>
    queryRows<{ refund_id: string | null }>(
      db,
      sql`select data->>'refund_id' as refund_id from pgboss.job
           where name = 'razorpay.refund' and data->>'refund_no' = ${refundNo} and state = 'created'`,
    );
  const sweep = () => ctx.app.services.housekeeping();

  it('is sent again by housekeeping after 30 minutes, once, and ends as Razorpay says: succeeded, then captured', async () => {
    const { tradeNo, paymentId } = await paidOrder('rzp-rf-stuck');
    const refundNo = await newRefund(tradeNo, 'RZ-RF-S', '35.00');
    const held = await balance();
    rzp.failNext('server_error', '/v1/payments/');
    await expect(runRefund({ refund_no: refundNo })).rejects.toThrow(/did not answer/);
    await retriesRanOut(refundNo);
    // Not yet: younger than 30 minutes, its job may still be retrying.
    clock = new Date(clock.getTime() + 29 * 60_000);
    await sweep();
    expect(await waitingJobs(refundNo)).toEqual([]);
    clock = new Date(clock.getTime() + 2 * 60_000);
    await sweep();
    expect(await waitingJobs(refundNo)).toEqual([{ refund_id: null }]);
    // Again while that job waits: nothing more is sent.
    await sweep();
    expect(await waitingJobs(refundNo)).toHaveLength(1);
    expect((await refundOf(refundNo)).status).toBe('processing');
    await runRefund({ refund_no: refundNo });
    expect(await refundOf(refundNo)).toMatchObject({ status: 'succeeded' });
    expect(atRazorpay(refundNo)).toHaveLength(1);
    expect(minor((await balance()).locked)).toBe(minor(held.locked) - 3_500);
    expect(rzp.requests.filter((r) => r.path === `/v1/payments/${paymentId}/refund`)).toHaveLength(2);
    // Ended: a later sweep sends nothing for it.
    await retriesRanOut(refundNo);
    await sweep();
    expect(await waitingJobs(refundNo)).toEqual([]);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('one Razorpay had made, pending when its query gave up: asked again under the same key, failed, released', async () => {
    const { tradeNo } = await paidOrder('rzp-rf-stuck-pending');
    const before = await balance();
    const refundNo = await newRefund(tradeNo, 'RZ-RF-SP', '45.00');
    rzp.nextRefund('pending');
    await runRefund({ refund_no: refundNo });
    const [made] = atRazorpay(refundNo);
    // Its query by id was queued, then gave up (as the first step's job, run here by hand).
    expect(await waitingJobs(refundNo)).toContainEqual({ refund_id: made.id });
    await retriesRanOut(refundNo);
    clock = new Date(clock.getTime() + 31 * 60_000);
    await sweep();
    expect(await waitingJobs(refundNo)).toEqual([{ refund_id: null }]);
    // The same X-Refund-Idempotency: Razorpay answers the refund it made, still pending, so it is asked
    // about by its id again; the bank then fails it and the hold comes back.
    await runRefund({ refund_no: refundNo });
    expect(atRazorpay(refundNo)).toHaveLength(1);
    const queued = (await waitingJobs(refundNo)).filter((j) => j.refund_id === made.id);
    expect(queued).toHaveLength(1);
    rzp.settleRefund(made.id, 'failed');
    await runRefund({ refund_no: refundNo, refund_id: made.id, round: '0' });
    expect(await refundOf(refundNo)).toMatchObject({ status: 'failed' });
    expect(await balance()).toEqual(before);
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});
