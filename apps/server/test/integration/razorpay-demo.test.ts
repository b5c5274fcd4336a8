import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { channels, collections, merchants, receivedPayments, refunds } from '../../src/db/schema/index.ts';
import { DEMO_LIVE_GUIDE, RAZORPAY_DEMO_MERCHANT, seedDemo } from '../../src/modules/demo/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The demo's Razorpay (issue 36 item 5, DESIGN 13): the INR merchant's live channel points at the server's
// own stand-in of Razorpay's Payment Links (/sandbox/razorpay), served over real HTTP here because the
// adapter reaches it by fetch, as it would Razorpay. The payer's page pays the link and the stand-in sends
// the signed payment_link.paid webhook; the order is paid once, and a second press changes nothing.

let ctx: TestContext;
let db: Db;
let origin: string;
let dataDir: string;

const order = async (tradeNo: string) =>
  (await db.select().from(collections).where(eq(collections.tradeNo, tradeNo)))[0]!;
const pathOf = (url: string) => new URL(url).pathname;
/** The page's Pay button, as a browser submits its form. */
const press = (link: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${pathOf(link)}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-rzp-demo-'));
  expect(await seedDemo(db, { appKey: ctx.config.appKey, guide: { dataDir, port } })).toBe(true);
});
afterAll(() => ctx.close());

describe('the INR demo merchant’s Razorpay channel', () => {
  it('is live, on the stand-in at this server, with an order waiting on its payment link', async () => {
    const [row] = await db
      .select({ provider: channels.provider, settings: channels.settings, status: channels.status })
      .from(channels)
      .innerJoin(merchants, eq(merchants.id, channels.merchantId))
      .where(
        and(
          eq(merchants.no, RAZORPAY_DEMO_MERCHANT),
          eq(merchants.mode, 'live'),
          eq(channels.code, 'payment-links'),
        ),
      );
    expect(row).toMatchObject({
      provider: 'razorpay',
      status: 'open',
      settings: { base_url: `${origin}/sandbox/razorpay`, key_id: expect.stringMatching(/^rzp_live_/) },
    });
    const guide = readFileSync(path.join(dataDir, DEMO_LIVE_GUIDE), 'utf8');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/sandbox\/razorpay\/i\/plink_\w+)/.exec(guide)?.[1];
    expect(link, guide).toBeDefined();
    const tradeNo = /Order (C\d+) \(799\.00 INR\) waits/.exec(guide)?.[1];
    expect(tradeNo).toBeDefined();
    expect(await order(tradeNo!)).toMatchObject({ status: 'to_be_paid', payUrl: link });

    // The payer's page: the amount and the Pay button; pressed, the order is paid by the webhook.
    const page = await ctx.app.inject({ method: 'GET', url: pathOf(link!) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('₹799.00');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const paid = await press(link!);
    expect([paid.statusCode, paid.headers.location]).toEqual([303, pathOf(link!)]);
    const after = await order(tradeNo!);
    expect(after).toMatchObject({ status: 'paid', channelRef: expect.stringMatching(/^pay_/) });
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(link!) })).body).toContain(
      'Payment successful',
    );

    // Pressed again (a second tab): nothing more is sent or paid.
    await press(link!);
    const payments = await db
      .select({ status: receivedPayments.status })
      .from(receivedPayments)
      .where(eq(receivedPayments.collectionId, after.id));
    expect(payments).toEqual([{ status: 'matched' }]);
    expect((await order(tradeNo!)).paidAt).toEqual(after.paidAt);
  });
});

describe('the stand-in’s API, as the razorpay adapter calls it', () => {
  let m: GatewayMerchant;
  beforeAll(async () => {
    m = await createGatewayMerchant(db, ctx.config.appKey, { currency: 'INR', channel: false });
    const token = (await import('../../src/modules/ops/index.ts')).ensureLocalOperatorToken;
    const opened = await ctx.app.inject({
      method: 'POST',
      url: '/ops/v1/channels/open',
      headers: {
        authorization: `Bearer ${await token(db, ctx.config.dataDir)}`,
        'x-operator': 'test',
        'content-type': 'application/json',
      },
      payload: {
        merchant: m.merchant.no,
        provider: 'razorpay',
        settings: { base_url: `${origin}/sandbox/razorpay`, key_id: 'rzp_live_standin0test' },
        secrets: { key_secret: 'key-secret-0123456789', webhook_secret: 'whsec-0123456789abcdef' },
        code: 'rzp',
        kind: 'collection',
        country: 'IN',
        fee_rate: '2',
        min_amount: '1.00',
        max_amount: '100000.00',
        expiry_minutes: 60,
        reason: 'razorpay on the stand-in',
      },
    });
    expect(opened.statusCode, opened.body).toBe(201);
  });

  it('makes the link (the collect job), pays it on its page, and the status query agrees', async () => {
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'rzp-standin-1', amount: '1250.50', channel: 'rzp' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const tradeNo = made.json().data.trade_no as string;
    await ctx.app.services.channelJobs.run('razorpay.collect', { trade_no: tradeNo });
    const linked = await order(tradeNo);
    expect(linked.payUrl).toMatch(new RegExp(`^${origin}/sandbox/razorpay/i/plink_`));
    // A retry of the job (its answer lost) finds the link by reference_id instead of making another.
    await ctx.app.services.channelJobs.run('razorpay.collect', { trade_no: tradeNo });
    expect((await order(tradeNo)).payUrl).toBe(linked.payUrl);

    const page = await ctx.app.inject({ method: 'GET', url: pathOf(linked.payUrl!) });
    expect(page.body).toContain('₹1,250.50');
    await press(linked.payUrl!);
    expect((await order(tradeNo)).status).toBe('paid');
    // The status query (for a webhook that never came) reads the paid link and changes nothing more.
    await ctx.app.services.channelJobs.run('razorpay.query', { trade_no: tradeNo });
    expect((await order(tradeNo)).status).toBe('paid');
  });

  it('refuses wrong keys as Razorpay does (401), and an amount under INR 1.00 (400, field amount)', async () => {
    const call = (key: string, body: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: '/sandbox/razorpay/v1/payment_links',
        headers: {
          authorization: `Basic ${Buffer.from(key).toString('base64')}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(body),
      });
    const wrong = await call('rzp_live_standin0test:not-the-secret', { amount: 1000, reference_id: 'x' });
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([401, 'BAD_REQUEST_ERROR']);
    const small = await call('rzp_live_standin0test:key-secret-0123456789', {
      amount: 99,
      reference_id: 'y',
    });
    expect([small.statusCode, small.json().error.field]).toEqual([400, 'amount']);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/sandbox/razorpay/i/plink_nothere' });
    expect(unknown.statusCode).toBe(404);
  });

  it('refunds a paid order through its payment (the refund job), once per X-Refund-Idempotency', async () => {
    await fundMerchant(db, m.merchant.id, 100_000n);
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'rzp-standin-refund', amount: '300.00', channel: 'rzp' },
    });
    const tradeNo = made.json().data.trade_no as string;
    await ctx.app.services.channelJobs.run('razorpay.collect', { trade_no: tradeNo });
    await press((await order(tradeNo)).payUrl!);
    const paymentId = (await order(tradeNo)).channelRef!;
    expect(paymentId).toMatch(/^pay_/);

    const created = await gatewayCall(ctx.app, m, 'POST', `/gateway/v1/collections/${tradeNo}/refunds`, {
      body: { out_refund_no: 'rzp-standin-rf', amount: '100.00' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const refundNo = created.json().data.refund_no as string;
    await ctx.app.services.channelJobs.run('razorpay.refund', { refund_no: refundNo });
    const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, refundNo));
    expect(row).toMatchObject({ status: 'succeeded', channelRef: expect.stringMatching(/^rfnd_/) });

    // The API itself: the same key answers the same refund; the refund is fetched by id; more than is
    // left of the payment is refused; a wrong key is 401.
    const api = (method: 'GET' | 'POST', url: string, body?: unknown, key = 'key-secret-0123456789') =>
      ctx.app.inject({
        method,
        url: `/sandbox/razorpay${url}`,
        headers: {
          authorization: `Basic ${Buffer.from(`rzp_live_standin0test:${key}`).toString('base64')}`,
          'x-refund-idempotency': refundNo,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const again = await api('POST', `/v1/payments/${paymentId}/refund`, {
      amount: 10_000,
      receipt: refundNo,
    });
    expect(again.json()).toMatchObject({ id: row.channelRef, status: 'processed', amount: 10_000 });
    const fetched = await api('GET', `/v1/refunds/${row.channelRef}`);
    expect(fetched.json()).toMatchObject({ id: row.channelRef, payment_id: paymentId, receipt: refundNo });
    const over = await ctx.app.inject({
      method: 'POST',
      url: `/sandbox/razorpay/v1/payments/${paymentId}/refund`,
      headers: {
        authorization: `Basic ${Buffer.from('rzp_live_standin0test:key-secret-0123456789').toString('base64')}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ amount: 20_001 }),
    });
    expect([over.statusCode, over.json().error.field]).toEqual([400, 'amount']);
    const wrong = await api('GET', `/v1/refunds/${row.channelRef}`, undefined, 'not-the-secret');
    expect(wrong.statusCode).toBe(401);
  });
});
