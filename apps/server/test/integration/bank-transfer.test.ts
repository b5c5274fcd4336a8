import { and, eq } from 'drizzle-orm';
import { QRPay } from 'vietnam-qr-pay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { callbackEvents, collections, operatorActions, receivedPayments } from '../../src/db/schema/index.ts';
import { signNotification } from '../../src/modules/channels/adapters/bank_transfer/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { createGatewayMerchant, gatewayCall, type GatewayMerchant } from '../factories/gateway.ts';
import { opsPost } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// A live bank transfer channel as a payer and a bank see it (DESIGN 13): the pay page's account, amount,
// reference and VietQR code; the bank's signed notification paying the order once; a bad signature, a
// replay, a different amount and an unknown reference each doing what the reconciliation needs.

let ctx: TestContext;
let db: Db;
let token: string;
let m: GatewayMerchant;
let secret: string;
const clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;

const ACCOUNT = {
  bank: 'Vietcombank',
  account_name: 'PAYDESK VIETNAM',
  account_no: '0071000888999',
  bank_bin: '970436',
};

const opsCall = (_method: 'POST', url: string, body: unknown) => opsPost(ctx.app, token, url, body);

const notify = (body: unknown, signWith = secret, code = 'vn-bank') => {
  const raw = JSON.stringify(body);
  return ctx.app.inject({
    method: 'POST',
    url: `/channels/${code}/notify`,
    headers: { 'content-type': 'application/json', 'x-channel-signature': signNotification(signWith, raw) },
    payload: raw,
  });
};

async function newOrder(outTradeNo: string, amount: string) {
  const response = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: outTradeNo, amount },
    now,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { trade_no: string; status: string; pay_url: string };
}

const orderStatus = async (tradeNo: string) =>
  (await db.select().from(collections).where(eq(collections.tradeNo, tradeNo)))[0].status;

const paymentOf = async (txnId: string) =>
  (await db.select().from(receivedPayments).where(eq(receivedPayments.txnId, txnId)))[0];

const bankLine = (tradeNo: string, txnId: string, amount: string) => ({
  transaction_id: txnId,
  reference: `THANH TOAN ${tradeNo}`,
  amount,
  currency: 'VND',
  paid_at: clock.toISOString(),
  payer_name: 'NGUYEN VAN A',
});

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  m = await createGatewayMerchant(db, ctx.config.appKey, {
    currency: 'VND',
    channel: false,
    notifyUrl: 'https://merchant.example/paydesk/notify',
  });
  const opened = await opsCall('POST', '/ops/v1/channels/open', {
    merchant: m.merchant.no,
    mode: 'live',
    provider: 'bank_transfer',
    settings: ACCOUNT,
    code: 'vn-bank',
    kind: 'collection',
    fee_rate: '1',
    min_amount: '10000',
    max_amount: '50000000',
    reason: 'live bank account',
  });
  expect(opened.statusCode, opened.body).toBe(201);
  secret = opened.json().data.generated_secrets.notify_secret;
});
afterAll(async () => {
  await ctx.close();
});

describe('opening a bank transfer channel', () => {
  it('answers its notification secret once and keeps it out of the action record', async () => {
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const actions = await db.select().from(operatorActions).where(eq(operatorActions.action, 'channel.open'));
    expect(JSON.stringify(actions)).not.toContain(secret);
  });

  it('refuses settings its country cannot use, naming the field, and opens nothing', async () => {
    const response = await opsCall('POST', '/ops/v1/channels/open', {
      merchant: m.merchant.no,
      provider: 'bank_transfer',
      settings: { ...ACCOUNT, bank_bin: '123456' },
      code: 'vn-bank-2',
      kind: 'collection',
      fee_rate: '1',
      min_amount: '10000',
      max_amount: '50000000',
      reason: 'a wrong bank',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors['settings.bank_bin'][0]).toMatch(/NAPAS/);
  });

  it('refuses a payout channel of a provider that only collects', async () => {
    const response = await opsCall('POST', '/ops/v1/channels/open', {
      merchant: m.merchant.no,
      provider: 'bank_transfer',
      settings: ACCOUNT,
      code: 'vn-bank-pay',
      kind: 'payout',
      fee_rate: '1',
      min_amount: '10000',
      max_amount: '50000000',
      reason: 'wrong kind',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.kind[0]).toMatch(/collection orders only/);
  });
});

describe('the pay page', () => {
  it('shows the account, the reference and a VietQR code the banking app reads', async () => {
    const order = await newOrder('bt-page', '150000');
    expect(order.pay_url).toMatch(new RegExp(`/pay/${order.trade_no}$`));
    const page = await ctx.app.inject({ method: 'GET', url: `/pay/${order.trade_no}?lang=vi` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Chuyển khoản');
    expect(page.body).toContain(ACCOUNT.account_no);
    expect(page.body).toContain(`data-testid="reference">${order.trade_no}<`);
    expect(page.body).toContain('<svg');
    expect(page.body).not.toContain('class="sandbox-banner"');
    // The payload drawn is the adapter's: decode it as a banking app would.
    const { paymentQr } = await import('../../src/modules/channels/adapters/bank_transfer/index.ts');
    const qr = paymentQr('VND', ACCOUNT, { tradeNo: order.trade_no, amountMinor: 150000n });
    const decoded = new QRPay(qr!.payload);
    expect(decoded.isValid).toBe(true);
    expect(decoded.consumer?.bankBin).toBe(ACCOUNT.bank_bin);
    expect(decoded.consumer?.bankNumber).toBe(ACCOUNT.account_no);
    expect(decoded.amount).toBe('150000');
    expect(decoded.additionalData?.purpose).toBe(order.trade_no);
  });

  it('answers 404 for an order of the sandbox or no order at all', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/pay/C20260101000000000000000' })).statusCode).toBe(
      404,
    );
  });
});

describe("the bank's notification", () => {
  it('pays the order once: a replay changes nothing, and the merchant gets one callback', async () => {
    const order = await newOrder('bt-paid', '200000');
    const body = bankLine(order.trade_no, 'VCB-1001', '200000');
    const first = await notify(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ matched: 1, seen: 0 });
    expect(await orderStatus(order.trade_no)).toBe('paid');
    const again = await notify(body);
    expect(again.json().data).toMatchObject({ matched: 0, seen: 1 });
    const [row] = await db.select().from(collections).where(eq(collections.tradeNo, order.trade_no));
    const callbacks = await db
      .select()
      .from(callbackEvents)
      .where(and(eq(callbackEvents.refType, 'collection'), eq(callbackEvents.refId, row.id)));
    expect(callbacks).toHaveLength(1);
    const payment = await paymentOf('VCB-1001');
    expect(payment.status).toBe('matched');
    expect(payment.payer).toBe('NGUYEN VAN A');
  });

  it('answers 401 to a bad signature and records nothing', async () => {
    const order = await newOrder('bt-forged', '200000');
    const response = await notify(bankLine(order.trade_no, 'VCB-FORGED', '200000'), 'not-the-secret-at-all');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('signature_invalid');
    expect(await orderStatus(order.trade_no)).toBe('to_be_paid');
    expect(await paymentOf('VCB-FORGED')).toBeUndefined();
  });

  it('keeps a different amount for review and leaves the order unpaid', async () => {
    const order = await newOrder('bt-short', '300000');
    const response = await notify(bankLine(order.trade_no, 'VCB-1002', '290000'));
    expect(response.json().data).toMatchObject({ review: 1 });
    expect(await orderStatus(order.trade_no)).toBe('to_be_paid');
    expect(await paymentOf('VCB-1002')).toMatchObject({ status: 'review', problem: 'amount_differs' });
  });

  it('records a payment for an unknown reference as unknown, never lost', async () => {
    const response = await notify(bankLine('no order here', 'VCB-1003', '50000'));
    expect(response.json().data).toMatchObject({ unknown: 1 });
    expect(await paymentOf('VCB-1003')).toMatchObject({ status: 'unknown', collectionId: null });
  });

  it('refuses a body it cannot read with 401 when unsigned and names the problem when signed', async () => {
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/channels/vn-bank/notify',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
    const unknownChannel = await notify({}, secret, 'no-such-channel');
    expect(unknownChannel.statusCode).toBe(404);
  });
});
