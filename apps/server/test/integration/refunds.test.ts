import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { channels, operatorActions } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  freshNonce,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Refunds of paid collections (DESIGN 14): full or partial, several per order within its amount; the hold
// at creation and its end (out at success, back at failure, the order's fee kept); the gateway's refusals;
// callbacks to a real receiver; the console's action behind both factors; racing refunds and settlements.

let ctx: TestContext;
// Starts at the real time: standardwebhooks checks a callback's timestamp against the real clock (5 min).
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let opsToken: string;

let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  opsToken = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});
afterEach(() => releaseClock());

/** A test-mode merchant with the sandbox collection channel (1.5%) and `fundsMinor` available. */
async function merchant(fundsMinor = 100_000n, options: Parameters<typeof createGatewayMerchant>[2] = {}) {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
    notifyUrl: receiver.url,
    mode: 'test',
    roles: ['ROOT', 'OPERATOR', 'FINANCE', 'VIEWER'],
    ...options,
  });
  if (fundsMinor > 0n) await fundMerchant(ctx.database.db, m.merchant.id, fundsMinor);
  return m;
}

const call = (
  m: GatewayMerchant,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  headers: Record<string, string> = {},
) => gatewayCall(ctx.app, m, method, path, { body, now, headers });

/** A collection paid on the sandbox page. */
async function paidOrder(m: GatewayMerchant, amount = '100.00', outTradeNo = `ORD-${Math.random()}`) {
  const order = (
    await call(m, 'POST', '/gateway/v1/collections', { out_trade_no: outTradeNo, amount })
  ).json().data;
  const paid = await payOnSandboxPage(ctx.app, order.pay_url);
  expect(paid.statusCode).toBe(303);
  return order as { trade_no: string; out_trade_no: string };
}

const refund = (
  m: GatewayMerchant,
  tradeNo: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => call(m, 'POST', `/gateway/v1/collections/${tradeNo}/refunds`, body, headers);

const balance = async (m: GatewayMerchant) =>
  (await call(m, 'GET', '/gateway/v1/balance')).json().data as { available: string; locked: string };

const refundCount = async (merchantId: number) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from refunds where merchant_id = ${merchantId}`,
    )
  )[0].n;

async function consoleOf(m: GatewayMerchant, role: 'ROOT' | 'OPERATOR' | 'FINANCE' | 'VIEWER' = 'ROOT') {
  const client = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
  client.mode = 'test';
  return client;
}

/** Delivers every event of the merchant due now to the receiver, and answers what arrived for it. */
async function deliverAll(m: GatewayMerchant) {
  const ids = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`select id from callback_events where merchant_id = ${m.merchant.id} and status = 'pending' order by created_at`,
  );
  receiver.received.length = 0;
  for (const { id } of ids) await ctx.app.services.callbacks.attempt(id);
  const webhook = new Webhook(m.webhookSecret);
  return receiver.received.map(
    (r) =>
      webhook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as { type: string; data: Record<string, unknown> },
  );
}

describe('a refund through the gateway', () => {
  it('holds a partial refund, sends it out on success with its callback, and keeps the order fee', async () => {
    const m = await merchant();
    const order = await paidOrder(m, '100.00');
    await deliverAll(m);
    const created = await refund(m, order.trade_no, {
      out_refund_no: 'RF-1',
      amount: '30.00',
      reason: 'size',
    });
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      out_refund_no: 'RF-1',
      trade_no: order.trade_no,
      status: 'processing',
      amount: '30.00',
      currency: 'CNY',
      reason: 'size',
      finished_at: null,
      failure_reason: null,
      livemode: false,
    });
    expect(data.refund_no).toMatch(/^R\d{20,}$/);
    // Out of available into locked at once.
    expect(await balance(m)).toMatchObject({ available: '970.00', locked: '30.00' });

    // Looked up by either number; the order shows what its refunds took.
    expect((await call(m, 'GET', `/gateway/v1/refunds/${data.refund_no}`)).json().data).toEqual(data);
    expect((await call(m, 'GET', '/gateway/v1/refunds?out_refund_no=RF-1')).json().data).toEqual(data);
    const root = await consoleOf(m);
    expect((await root.get(`/api/merchant/collections/${order.trade_no}`)).json().data.refunded).toBe(
      '30.00',
    );

    // The sandbox finishes it after the channel's delay: succeeded, the hold leaves, the callback says so.
    await ctx.app.services.channelJobs.run('sandbox.complete', { refund_no: data.refund_no });
    const done = (await call(m, 'GET', `/gateway/v1/refunds/${data.refund_no}`)).json().data;
    expect(done).toMatchObject({ status: 'succeeded', finished_at: clock.toISOString() });
    expect(await balance(m)).toMatchObject({ available: '970.00', locked: '0.00' });
    const events = await deliverAll(m);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'refund.succeeded',
        data: expect.objectContaining({ refund_no: data.refund_no, status: 'succeeded', livemode: false }),
      }),
    ]);

    // The fund flow shows the refund; its success writes no second entry (the money left at creation).
    const flows = (await root.get('/api/merchant/fund-flows')).json().data;
    expect(flows[0]).toMatchObject({ type: 'refund', amount: '-30.00', ref_no: data.refund_no });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('gives a failed refund back (amount ending in .13) and lets the order be refunded again', async () => {
    const m = await merchant();
    const order = await paidOrder(m, '50.00');
    await deliverAll(m);
    const failing = (await refund(m, order.trade_no, { out_refund_no: 'RF-F', amount: '50.13' })).json();
    expect(failing.code).toBe('refund_exceeds_amount');
    const first = (await refund(m, order.trade_no, { out_refund_no: 'RF-F', amount: '10.13' })).json().data;
    expect(await balance(m)).toMatchObject({ available: '989.87', locked: '10.13' });
    await ctx.app.services.channelJobs.run('sandbox.complete', { refund_no: first.refund_no });
    expect((await call(m, 'GET', `/gateway/v1/refunds/${first.refund_no}`)).json().data).toMatchObject({
      status: 'failed',
      failure_reason: 'Sandbox: refunds of an amount ending in .13 fail.',
    });
    expect(await balance(m)).toMatchObject({ available: '1000.00', locked: '0.00' });
    const events = await deliverAll(m);
    expect(events.map((e) => e.type)).toEqual(['refund.failed']);
    const root = await consoleOf(m);
    const flows = (await root.get('/api/merchant/fund-flows')).json().data;
    expect(flows.slice(0, 2).map((f: { type: string; amount: string }) => [f.type, f.amount])).toEqual([
      ['refund_reversal', '10.13'],
      ['refund', '-10.13'],
    ]);
    // The whole amount is refundable again.
    const whole = await refund(m, order.trade_no, { out_refund_no: 'RF-W', amount: '50.00' });
    expect(whole.statusCode, whole.body).toBe(201);
    expect((await root.get(`/api/merchant/collections/${order.trade_no}`)).json().data.refunded).toBe(
      '50.00',
    );
  });

  it('refuses what breaks a rule with its code, and writes nothing', async () => {
    const m = await merchant(2_000n);
    const order = await paidOrder(m, '100.00');
    const first = (await refund(m, order.trade_no, { out_refund_no: 'RF-A', amount: '5.00' })).json().data;
    const before = { count: await refundCount(m.merchant.id), balance: await balance(m) };

    // More than what is left (95.00), a repeated out_refund_no, more than available (15.00).
    const over = await refund(m, order.trade_no, { out_refund_no: 'RF-B', amount: '95.01' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      code: 'refund_exceeds_amount',
      errors: { amount: [expect.any(String)] },
    });
    const repeated = await refund(m, order.trade_no, { out_refund_no: 'RF-A', amount: '1.00' });
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json()).toMatchObject({ code: 'out_refund_no_taken', refund_no: first.refund_no });
    const short = await refund(m, order.trade_no, { out_refund_no: 'RF-C', amount: '15.01' });
    expect(short.statusCode).toBe(422);
    expect(short.json().code).toBe('insufficient_funds');

    // Bad amounts name the field.
    for (const amount of ['0', '0.00', '-1.00', '1.001', 'abc', 12]) {
      const bad = await refund(m, order.trade_no, { out_refund_no: 'RF-D', amount });
      expect(bad.statusCode, String(amount)).toBe(422);
      expect(Object.keys(bad.json().errors ?? {})).toContain('amount');
    }
    // An unpaid order: 409 invalid_state.
    const unpaid = (
      await call(m, 'POST', '/gateway/v1/collections', { out_trade_no: 'UNPAID', amount: '10.00' })
    ).json().data;
    const notPaid = await refund(m, unpaid.trade_no, { out_refund_no: 'RF-E', amount: '1.00' });
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().code).toBe('invalid_state');

    // Another merchant's order, and the same merchant's live key for a test order: 404.
    const other = await merchant();
    expect((await refund(other, order.trade_no, { out_refund_no: 'X', amount: '1.00' })).statusCode).toBe(
      404,
    );
    expect((await call(other, 'GET', `/gateway/v1/refunds/${first.refund_no}`)).statusCode).toBe(404);
    const live = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {});
    expect((await refund(live, order.trade_no, { out_refund_no: 'X', amount: '1.00' })).statusCode).toBe(404);

    expect(await refundCount(m.merchant.id)).toBe(before.count);
    expect(await balance(m)).toEqual(before.balance);
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const m = await merchant();
    const order = await paidOrder(m);
    const key = { 'idempotency-key': 'refund-key-1' };
    const first = await refund(m, order.trade_no, { out_refund_no: 'IK-1', amount: '3.00' }, key);
    expect(first.statusCode).toBe(201);
    const again = await refund(m, order.trade_no, { out_refund_no: 'IK-1', amount: '3.00' }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await refund(m, order.trade_no, { out_refund_no: 'IK-2', amount: '4.00' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await refundCount(m.merchant.id)).toBe(1);
  });
});

describe("a gateway refund's one statement (a remembered key and order channel)", () => {
  // Once this process remembers the key and the order's channel, a refund without an Idempotency-Key
  // claims the nonce, takes the amount from the order, holds it and writes the refund, its job and its
  // journal entry in one statement. The same call under an Idempotency-Key takes the long way: every
  // refusal must read the same both ways.

  /** The transaction ids that wrote the call's nonce, the refund, its order's claim, its hold's entry and its job. */
  const writersOf = async (m: GatewayMerchant, nonce: string, refundNo: string, tradeNo: string) => {
    const [row] = await queryRows<Record<string, string>>(
      ctx.database.db,
      sql`select (select xmin::text from gateway_nonces where merchant_id = ${m.merchant.id} and nonce = ${nonce}) as nonce,
                 (select xmin::text from refunds where refund_no = ${refundNo}) as refund,
                 (select xmin::text from collections where trade_no = ${tradeNo}) as "order",
                 (select xmin::text from journal_entries where ref_no = ${refundNo}) as entry,
                 (select xmin::text from holds where ref_no = ${refundNo}) as hold,
                 (select xmin::text from fund_flows where ref_no = ${refundNo}) as flow,
                 (select xmin::text from pgboss.job where name = 'sandbox.complete' and data->>'refund_no' = ${refundNo}) as job`,
    );
    return row;
  };
  /** Refunds, holds, journal entries and jobs of the merchant's refunds, and what its orders gave. */
  const written = async (m: GatewayMerchant) => {
    const [row] = await queryRows<Record<string, string>>(
      ctx.database.db,
      sql`select (select count(*) from refunds where merchant_id = ${m.merchant.id})::text as refunds,
                 (select coalesce(sum(amount_minor), 0) from refunds where merchant_id = ${m.merchant.id})::text as refunded,
                 (select coalesce(sum(refunded_minor), 0) from collections where merchant_id = ${m.merchant.id})::text as "ordersGave",
                 (select count(*) from holds where merchant_id = ${m.merchant.id} and type = 'refund')::text as holds,
                 (select count(*) from journal_entries where merchant_id = ${m.merchant.id} and type = 'refund')::text as entries,
                 (select count(*) from pgboss.job j join refunds r on r.refund_no = j.data->>'refund_no'
                   where r.merchant_id = ${m.merchant.id})::text as jobs`,
    );
    return row;
  };

  it('commits the nonce, the order, the refund, its job and its hold together, and the sandbox then ends it', async () => {
    const m = await merchant();
    const order = await paidOrder(m, '100.00');
    // Paying the order through the gateway made this process remember the key.
    const nonce = freshNonce();
    const created = await gatewayCall(
      ctx.app,
      m,
      'POST',
      `/gateway/v1/collections/${order.trade_no}/refunds`,
      {
        body: { out_refund_no: 'ONE-1', amount: '40.00', reason: 'one' },
        now,
        nonce,
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      out_refund_no: 'ONE-1',
      amount: '40.00',
      status: 'processing',
      reason: 'one',
    });
    const writers = await writersOf(m, nonce, data.refund_no, order.trade_no);
    expect(writers.refund).toBeTypeOf('string');
    // One transaction wrote all of it: the long way claims the nonce in a transaction of its own first.
    expect(writers).toEqual({
      nonce: writers.refund,
      refund: writers.refund,
      order: writers.refund,
      entry: writers.refund,
      hold: writers.refund,
      flow: writers.refund,
      job: writers.refund,
    });
    expect(await balance(m)).toMatchObject({ available: '960.00', locked: '40.00' });
    const [flow] = await queryRows<{
      type: string;
      amount: string;
      after: string;
      key: string;
      note: string;
    }>(
      ctx.database.db,
      sql`select f.type, f.amount_minor::text as amount, f.available_after_minor::text as after,
                 h.idempotency_key as key, f.note
            from fund_flows f join holds h on h.id = f.hold_id where f.ref_no = ${data.refund_no}`,
    );
    const [{ id }] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id::text from refunds where refund_no = ${data.refund_no}`,
    );
    expect(flow).toEqual({
      type: 'refund',
      amount: '-4000',
      after: '96000',
      key: `refund:${id}:hold`,
      note: order.trade_no,
    });
    // The nonce is spent.
    const again = await gatewayCall(ctx.app, m, 'POST', `/gateway/v1/collections/${order.trade_no}/refunds`, {
      body: { out_refund_no: 'ONE-2', amount: '1.00' },
      now,
      nonce,
    });
    expect([again.statusCode, again.json().code]).toEqual([401, 'nonce_reused']);

    // Its job ends it as any refund's: succeeded, the hold captured.
    await ctx.app.services.channelJobs.run('sandbox.complete', { refund_no: data.refund_no });
    const done = (await call(m, 'GET', `/gateway/v1/refunds/${data.refund_no}`)).json().data;
    expect(done.status).toBe('succeeded');
    expect(await balance(m)).toMatchObject({ available: '960.00', locked: '0.00' });
    const root = await consoleOf(m);
    expect((await root.get(`/api/merchant/collections/${order.trade_no}`)).json().data.refunded).toBe(
      '40.00',
    );
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('answers each refusal as the long way does, spends the nonce, and writes nothing else', async () => {
    // 40.00 available after the first refund (50.00 of 90.00); 50.00 left of the order.
    const m = await merchant(9_000n);
    const order = await paidOrder(m, '100.00');
    const first = await refund(m, order.trade_no, { out_refund_no: 'SAME-1', amount: '50.00' });
    expect(first.statusCode, first.body).toBe(201);
    const unpaid = (
      await call(m, 'POST', '/gateway/v1/collections', { out_trade_no: 'UNPAID-1', amount: '10.00' })
    ).json().data;
    const other = await merchant();
    const otherOrder = await paidOrder(other, '100.00');
    const before = { written: await written(m), balance: await balance(m) };

    let key = 0;
    const cases: [string, string, Record<string, unknown>][] = [
      ['refund_exceeds_amount', order.trade_no, { out_refund_no: 'R-1', amount: '50.01' }],
      ['out_refund_no_taken', order.trade_no, { out_refund_no: 'SAME-1', amount: '1.00' }],
      ['insufficient_funds', order.trade_no, { out_refund_no: 'R-2', amount: '50.00' }],
      ['invalid_state', unpaid.trade_no, { out_refund_no: 'R-3', amount: '1.00' }],
      ['not found', otherOrder.trade_no, { out_refund_no: 'R-4', amount: '1.00' }],
      ['not found', 'C20990101000000000000', { out_refund_no: 'R-5', amount: '1.00' }],
      ['bad amount', order.trade_no, { out_refund_no: 'R-6', amount: '1.001' }],
    ];
    for (const [what, tradeNo, body] of cases) {
      const nonce = freshNonce();
      const path = `/gateway/v1/collections/${tradeNo}/refunds`;
      const fast = await gatewayCall(ctx.app, m, 'POST', path, { body, now, nonce });
      const long = await refund(m, tradeNo, body, { 'idempotency-key': `long-${key++}` });
      expect(fast.statusCode, what).toBeGreaterThanOrEqual(400);
      const answer = (a: typeof fast) => {
        const { request_id: _id, ...body } = a.json();
        return [a.statusCode, body];
      };
      expect(answer(fast), what).toEqual(answer(long));
      const again = await gatewayCall(ctx.app, m, 'POST', path, { body, now, nonce });
      expect(again.json().code, what).toBe('nonce_reused');
    }
    expect(await written(m)).toEqual(before.written);
    expect(await balance(m)).toEqual(before.balance);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('writes refunds that arrive together in one statement and commit, each with its own entry, hold and job', async () => {
    // Group commit: the calls that arrive while one statement runs are written together by the next;
    // each answers as its own statement would, two refunds of one order never share one, and the books
    // read as if each had been written alone.
    const [a, b] = [await merchant(), await merchant()];
    const ordersOf = async (m: GatewayMerchant) => {
      const made = [];
      for (let i = 0; i < 8; i++) made.push(await paidOrder(m, '100.00'));
      return made;
    };
    const [ordersA, ordersB] = [await ordersOf(a), await ordersOf(b)];
    const replayed = freshNonce();
    const first = await gatewayCall(
      ctx.app,
      a,
      'POST',
      `/gateway/v1/collections/${ordersA[0].trade_no}/refunds`,
      {
        body: { out_refund_no: 'GC-FIRST', amount: '1.00' },
        now,
        nonce: replayed,
      },
    );
    expect(first.statusCode, first.body).toBe(201);

    const responses = await Promise.all([
      ...ordersA.map((o, i) => refund(a, o.trade_no, { out_refund_no: `GC-A${i}`, amount: '10.00' })),
      ...ordersB.map((o, i) => refund(b, o.trade_no, { out_refund_no: `GC-B${i}`, amount: '20.00' })),
      // Two more of one order (both fit), one out_refund_no twice, and a nonce already used.
      refund(a, ordersA[1].trade_no, { out_refund_no: 'GC-SAME-1', amount: '30.00' }),
      refund(a, ordersA[1].trade_no, { out_refund_no: 'GC-SAME-2', amount: '40.00' }),
      refund(a, ordersA[2].trade_no, { out_refund_no: 'GC-DUP', amount: '5.00' }),
      refund(a, ordersA[3].trade_no, { out_refund_no: 'GC-DUP', amount: '5.00' }),
      gatewayCall(ctx.app, a, 'POST', `/gateway/v1/collections/${ordersA[4].trade_no}/refunds`, {
        body: { out_refund_no: 'GC-REPLAY', amount: '1.00' },
        now,
        nonce: replayed,
      }),
    ]);
    const answers = responses.map((r) => [r.statusCode, r.json().code ?? null]);
    expect(answers.slice(0, 18)).toEqual(Array(18).fill([201, null]));
    expect(answers.slice(18, 20).sort()).toEqual([
      [201, null],
      [409, 'out_refund_no_taken'],
    ]);
    expect(answers[20]).toEqual([401, 'nonce_reused']);

    const rows = await queryRows<Record<string, string>>(
      ctx.database.db,
      sql`select r.xmin::text as refund, e.xmin::text as entry, h.xmin::text as hold, f.xmin::text as flow,
                 (select j.xmin::text from pgboss.job j
                   where j.name = 'sandbox.complete' and j.data->>'refund_no' = r.refund_no) as job
            from refunds r
            join journal_entries e on e.idempotency_key = 'refund:' || r.id || ':hold'
            join holds h on h.idempotency_key = e.idempotency_key and h.status = 'open'
            join fund_flows f on f.entry_id = e.id and f.hold_id = h.id
           where r.merchant_id in (${a.merchant.id}, ${b.merchant.id}) and r.out_refund_no <> 'GC-FIRST'`,
    );
    expect(rows).toHaveLength(19);
    // Each refund's entry, hold, fund flow and sandbox job commit with it.
    for (const row of rows)
      expect([row.entry, row.hold, row.flow, row.job]).toEqual(Array(4).fill(row.refund));
    // Fewer commits than refunds: some were written together.
    expect(new Set(rows.map((r) => r.refund)).size).toBeLessThan(rows.length);
    // a: 1,000.00 - 1.00 - 8 x 10.00 - 30.00 - 40.00 - 5.00; b: 8 x 20.00.
    expect(await balance(a)).toMatchObject({ available: '844.00', locked: '156.00' });
    expect(await balance(b)).toMatchObject({ available: '840.00', locked: '160.00' });
    const [orders] = await queryRows<{ given: string; held: string }>(
      ctx.database.db,
      sql`select (select sum(refunded_minor) from collections where merchant_id in (${a.merchant.id}, ${b.merchant.id}))::text as given,
                 (select sum(amount_minor) from refunds where merchant_id in (${a.merchant.id}, ${b.merchant.id}))::text as held`,
    );
    expect(orders).toEqual({ given: '31600', held: '31600' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('lets exactly what the balance covers through, out of 30 refunds of different orders at once', async () => {
    // 1,000.00 available (paid orders settle T+1): 10 refunds of 100.00 are covered.
    const m = await merchant(100_000n);
    const orders = [];
    for (let i = 0; i < 30; i++) orders.push(await paidOrder(m, '100.00', `COVER-${i}`));
    const answers = await Promise.all(
      orders.map((order, i) => refund(m, order.trade_no, { out_refund_no: `COVER-${i}`, amount: '100.00' })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode !== 201).map((a) => a.json().code)).toEqual(
      Array(20).fill('insufficient_funds'),
    );
    // Every order gave exactly what its refund holds: none gave for a refund that was not written.
    const after = await written(m);
    expect(after).toMatchObject({
      refunds: '10',
      refunded: '100000',
      ordersGave: '100000',
      holds: '10',
      entries: '10',
      jobs: '10',
    });
    expect(await balance(m)).toMatchObject({ available: '0.00', locked: '1000.00' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe('under concurrency', () => {
  it('50 racing refunds of one order never pass its amount, and the books balance', async () => {
    const m = await merchant();
    const order = await paidOrder(m, '20.00');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        refund(m, order.trade_no, { out_refund_no: `RACE-${i}`, amount: '1.00' }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(new Set(answers.filter((a) => a.statusCode !== 201).map((a) => a.json().code))).toEqual(
      new Set(['refund_exceeds_amount']),
    );
    expect(statuses.every((s) => s === 201 || s === 422)).toBe(true);
    expect(await balance(m)).toMatchObject({ available: '980.00', locked: '20.00' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('a refund racing the settlement of its order: both apply once, and the books balance', async () => {
    const m = await merchant(0n);
    const order = await paidOrder(m, '100.00');
    // Funds for the refund are there only because of other money: T+1 settles the next day.
    await fundMerchant(ctx.database.db, m.merchant.id, 1_000n);
    advance(24 * 3600 * 1000);
    const [settled, refunded] = await Promise.all([
      ctx.app.services.settlements.run(),
      refund(m, order.trade_no, { out_refund_no: 'RS-1', amount: '10.00' }),
    ]);
    expect(refunded.statusCode, refunded.body).toBe(201);
    expect(settled.posted.filter((s) => s.merchantId === m.merchant.id)).toHaveLength(1);
    // 10.00 + 98.50 net (1.5% fee kept) - 10.00 held.
    expect(await balance(m)).toMatchObject({ available: '98.50', locked: '10.00' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe('the console', () => {
  it('refunds from the order with both factors, lists refunds with their sums, and counts them today', async () => {
    const totp = freezeClock();
    const m = await merchant();
    const order = await paidOrder(m, '80.00');
    const root = await consoleOf(m);
    const { nextCode } = await setUpStepUp(root, totp, 'pay-123456');
    const path = `/api/merchant/collections/${order.trade_no}/refunds`;

    // A wrong payment password refuses before anything is written.
    const wrong = await root.post(path, {
      amount: '20.00',
      payment_password: 'nope-nope',
      code: await nextCode(),
    });
    expect(wrong.statusCode).toBe(422);
    expect(await refundCount(m.merchant.id)).toBe(0);
    // Over the order: refused before the step-up (no code spent).
    const over = await root.post(path, { amount: '80.01', payment_password: 'pay-123456', code: '000000' });
    expect(over.json().code).toBe('refund_exceeds_amount');

    const made = await root.post(path, {
      amount: '20.00',
      reason: 'damaged',
      payment_password: 'pay-123456',
      code: await nextCode(),
    });
    expect(made.statusCode, made.body).toBe(201);
    const detail = made.json().data;
    expect(detail).toMatchObject({
      status: 'processing',
      amount: '20.00',
      trade_no: order.trade_no,
      out_trade_no: order.out_trade_no,
      source: 'console',
      channel: 'sandbox',
      timeline: [{ step: 'created' }],
    });
    expect(detail.out_refund_no).toMatch(/^WEB\d+$/);

    // FINANCE and VIEWER may not refund; VIEWER sees the list.
    const viewer = await consoleOf(m, 'VIEWER');
    expect((await viewer.post(path, { amount: '1.00', payment_password: 'x', code: '1' })).statusCode).toBe(
      403,
    );
    expect((await (await consoleOf(m, 'FINANCE')).post(path, { amount: '1.00' })).statusCode).toBe(403);

    // A gateway refund of the rest, then the list: newest first, sums from the rollup.
    await refund(m, order.trade_no, { out_refund_no: 'GW-REST', amount: '60.00' });
    const list = (await viewer.get('/api/merchant/refunds')).json();
    expect(list.data.map((r: { out_refund_no: string }) => r.out_refund_no)).toEqual([
      'GW-REST',
      detail.out_refund_no,
    ]);
    expect(list.meta.sums).toEqual({ amount: '80.00', count: 2 });
    const byOrder = (
      await viewer.get(`/api/merchant/refunds?trade_no=${order.trade_no}&status=processing`)
    ).json();
    expect(byOrder.meta.sums).toEqual({ amount: '80.00', count: 2 });
    expect((await viewer.get(`/api/merchant/refunds/${detail.refund_no}`)).json().data.refund_no).toBe(
      detail.refund_no,
    );
    // Another merchant's refund: 404.
    const other = await consoleOf(await merchant());
    expect((await other.get(`/api/merchant/refunds/${detail.refund_no}`)).statusCode).toBe(404);
    expect((await other.get('/api/merchant/refunds')).json().data).toEqual([]);

    // The dashboard's refunds of today.
    expect((await root.get('/api/merchant/dashboard')).json().data.refunds).toEqual({
      amount: '80.00',
      count: 2,
      currency: 'CNY',
    });
  });
});

describe("a bank transfer's refund: the operator's queue", () => {
  it('waits for the operator, who finishes it as succeeded or failed', async () => {
    const m = await merchant();
    const order = await paidOrder(m, '40.00');
    // The order's channel becomes a bank transfer one (its refunds are paid back by hand).
    await ctx.database.db
      .update(channels)
      .set({ provider: 'bank_transfer' })
      .where(eq(channels.id, m.channel!.id));
    const a = (await refund(m, order.trade_no, { out_refund_no: 'BT-1', amount: '10.00' })).json().data;
    const b = (await refund(m, order.trade_no, { out_refund_no: 'BT-2', amount: '5.00' })).json().data;
    const ops = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({
        method,
        url,
        payload,
        headers: { authorization: `Bearer ${opsToken}`, 'x-operator': 'alice' },
      });
    const queue = (await ops('GET', '/ops/v1/refunds')).json().data;
    expect(queue.map((r: { refund_no: string }) => r.refund_no)).toEqual(
      expect.arrayContaining([a.refund_no, b.refund_no]),
    );
    const done = await ops('POST', '/ops/v1/refunds/complete', {
      refund_no: a.refund_no,
      result: 'succeeded',
      reason: 'sent from our bank',
    });
    expect(done.statusCode, done.body).toBe(201);
    const failed = await ops('POST', '/ops/v1/refunds/complete', {
      refund_no: b.refund_no,
      result: 'failed',
      reason: 'payer account closed',
    });
    expect(failed.statusCode).toBe(201);
    // Twice: the refund is no longer processing.
    const again = await ops('POST', '/ops/v1/refunds/complete', {
      refund_no: b.refund_no,
      result: 'succeeded',
      reason: 'try again',
    });
    expect(again.statusCode).toBe(409);
    expect((await call(m, 'GET', `/gateway/v1/refunds/${b.refund_no}`)).json().data).toMatchObject({
      status: 'failed',
      failure_reason: 'payer account closed',
    });
    expect(await balance(m)).toMatchObject({ available: '990.00', locked: '0.00' });
    // A refund its channel is working on (the sandbox's) is not the operator's to finish: not listed,
    // and refused, so it can never be given back while the provider pays the payer.
    const other = await merchant();
    const sandboxOrder = await paidOrder(other, '20.00');
    const onChannel = (
      await refund(other, sandboxOrder.trade_no, { out_refund_no: 'SB-1', amount: '5.00' })
    ).json().data;
    const listed = (await ops('GET', '/ops/v1/refunds')).json().data as { refund_no: string }[];
    expect(listed.map((r) => r.refund_no)).not.toContain(onChannel.refund_no);
    const refused = await ops('POST', '/ops/v1/refunds/complete', {
      refund_no: onChannel.refund_no,
      result: 'failed',
      reason: 'not ours to decide',
    });
    expect(refused.statusCode).toBe(409);
    expect(await balance(other)).toMatchObject({ available: '995.00', locked: '5.00' });
    const actions = await ctx.database.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.action, 'refund.complete'));
    expect(actions.length).toBeGreaterThanOrEqual(2);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe('the books of a day with refunds', () => {
  it('keeps the day with its refunds column, and ledger:verify finds it balanced', async () => {
    advance(2 * 24 * 3600 * 1000);
    // The refunds' entries are dated by the database (today, for real); the clock is three days on.
    await ctx.app.services.dailyReports.keepFinishedDays(5);
    const [kept] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from daily_reports where collection_refunds_minor <> 0`,
    );
    expect(kept.n).toBeGreaterThan(0);
    const report = await verifyLedger(ctx.database.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  });
});
