import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { channels } from '../../src/db/schema/index.ts';
import { signWebhook } from '../../src/lib/webhooks.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { opsRunner } from '../helpers/ops.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Send money, beyond payouts.test.ts (DESIGN sections 3, 4, 6 and 10): the payee form of every channel
// country through the gateway, the payment password lock and the single-use Google code on the console
// form, the payout callbacks as a merchant's server receives them, and ops sandbox:complete on a payout.

let ctx: TestContext;
let operatorToken: string;

/** The merchant's notify endpoint, answering 200. */
let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestApp();
  operatorToken = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
  receiver = await startReceiver('/paydesk/notify');
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});
afterEach(() => releaseClock());

type Country = 'CN' | 'IN' | 'BR' | 'VN';
const CURRENCY_OF = { CN: 'CNY', IN: 'INR', BR: 'BRL', VN: 'VND' } as const;

/**
 * A merchant in the country's currency with an open sandbox payout channel of that country (1% + 0.50,
 * or 1% + 5 VND; 1.00 to 50,000.00, or 1,000 to 50,000,000 VND) and `fundsMinor` available.
 */
async function payer(country: Country, fundsMinor: bigint): Promise<GatewayMerchant> {
  const currency = CURRENCY_OF[country];
  const db = ctx.database.db;
  const m = await createGatewayMerchant(db, ctx.config.appKey, {
    currency,
    roles: ['ROOT'],
    channel: false,
  });
  const vnd = currency === 'VND';
  await db.insert(channels).values({
    merchantId: m.merchant.id,
    code: 'sandbox-pay',
    kind: 'payout',
    country,
    currency,
    feeRatePpm: 10_000,
    fixedFeeMinor: vnd ? 5n : 50n,
    minAmountMinor: vnd ? 1_000n : 100n,
    maxAmountMinor: vnd ? 50_000_000n : 5_000_000n,
    openedBy: 'test',
  });
  await fundMerchant(db, m.merchant.id, fundsMinor);
  return m;
}

const gatewayPayout = (m: GatewayMerchant, body: Record<string, unknown>) =>
  gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', { body });

const balance = async (m: GatewayMerchant) =>
  (await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance')).json().data as {
    available: string;
    locked: string;
    currency: string;
  };

const payoutsOf = (merchantId: number) =>
  queryRows<{ id: string; trade_no: string; status: string }>(
    ctx.database.db,
    sql`select id::text as id, trade_no, status from payouts where merchant_id = ${merchantId} order by id`,
  );

/** Every journal entry of a payout (keys payout:<id>:...), each as its postings by account kind. */
async function postingsOf(tradeNo: string) {
  const rows = await queryRows<{ key: string; kind: string; amount: string }>(
    ctx.database.db,
    sql`select e.idempotency_key as key, a.kind, p.amount_minor::text as amount
          from payouts o
          join journal_entries e on e.idempotency_key like 'payout:' || o.id || ':%'
          join postings p on p.entry_id = e.id
          join ledger_accounts a on a.id = p.account_id
         where o.trade_no = ${tradeNo}
         order by e.id, p.id`,
  );
  const entries: Record<string, Record<string, bigint>> = {};
  for (const row of rows) {
    const step = row.key.split(':')[2];
    entries[step] ??= {};
    entries[step][row.kind] = (entries[step][row.kind] ?? 0n) + BigInt(row.amount);
  }
  return entries;
}

/** A 422 whose errors name exactly these fields; nothing written, nothing held. */
async function expectRefused(
  m: GatewayMerchant,
  body: Record<string, unknown>,
  fields: string[],
  before: { available: string; locked: string },
) {
  const response = await gatewayPayout(m, body);
  expect(response.statusCode, response.body).toBe(422);
  expect(Object.keys(response.json().errors ?? {}).sort(), response.body).toEqual([...fields].sort());
  expect(await balance(m)).toMatchObject(before);
  return response.json();
}

describe('the payee form of each channel country, through the gateway', () => {
  it('IN: an IFSC of a known bank is accepted; a malformed one, an unknown bank prefix or none answer 422 errors.ifsc', async () => {
    const m = await payer('IN', 10_000_000n);
    const payee = {
      amount: '1000.00',
      account_type: 'individual',
      payee_name: 'Asha Rao',
      account_no: '123456789012',
      ifsc: 'SBIN0001234',
    };
    const accepted = await gatewayPayout(m, { ...payee, out_trade_no: 'IN-OK' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({
      status: 'pending',
      amount: '1000.00',
      fee: '10.50',
      currency: 'INR',
      account_no: '********9012',
    });
    const held = { available: '98989.50', locked: '1010.50' };
    expect(await balance(m)).toMatchObject(held);

    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['IN-FORMAT', { ifsc: 'SBIN1001234' }, /11 characters/],
      ['IN-SHORT', { ifsc: 'SBIN000123' }, /11 characters/],
      ['IN-PREFIX', { ifsc: 'ZZZZ0001234' }, /ZZZZ is not a known bank/],
      ['IN-MISSING', { ifsc: undefined }, /required/],
      ['IN-EMPTY', { ifsc: '' }, /required/],
    ];
    for (const [outTradeNo, change, message] of cases) {
      const refused = await expectRefused(
        m,
        { ...payee, ...change, out_trade_no: outTradeNo },
        ['ifsc'],
        held,
      );
      expect(refused.errors.ifsc[0], outTradeNo).toMatch(message);
    }
    expect((await payoutsOf(m.merchant.id)).map((p) => p.status)).toEqual(['pending']);
  });

  it('BR: an individual needs a valid CPF and a company a valid CNPJ (errors.cpf_cnpj); an unknown bank answers errors.bank_code', async () => {
    const m = await payer('BR', 10_000_000n);
    const individual = {
      amount: '100.00',
      account_type: 'individual',
      payee_name: 'João Silva',
      account_no: '12345-6',
      bank_code: '001',
      cpf_cnpj: '123.456.789-09',
    };
    const company = {
      ...individual,
      account_type: 'company',
      payee_name: 'Silva Comércio Ltda',
      cpf_cnpj: '12.345.678/0001-95',
    };
    const person = await gatewayPayout(m, { ...individual, out_trade_no: 'BR-CPF' });
    expect(person.statusCode, person.body).toBe(201);
    expect(person.json().data).toMatchObject({ currency: 'BRL', amount: '100.00', fee: '1.50' });
    // Unpunctuated numbers are the same numbers.
    const bare = await gatewayPayout(m, { ...individual, cpf_cnpj: '12345678909', out_trade_no: 'BR-CPF-2' });
    expect(bare.statusCode, bare.body).toBe(201);
    const firm = await gatewayPayout(m, { ...company, out_trade_no: 'BR-CNPJ' });
    expect(firm.statusCode, firm.body).toBe(201);
    const held = { available: '99695.50', locked: '304.50' };
    expect(await balance(m)).toMatchObject(held);

    const cases: [string, Record<string, unknown>, string[]][] = [
      ['BR-CPF-DIGITS', { ...individual, cpf_cnpj: '123.456.789-00' }, ['cpf_cnpj']],
      ['BR-CNPJ-DIGITS', { ...company, cpf_cnpj: '12.345.678/0001-00' }, ['cpf_cnpj']],
      // A valid number of the other kind is still the wrong one.
      ['BR-CPF-FOR-COMPANY', { ...company, cpf_cnpj: '123.456.789-09' }, ['cpf_cnpj']],
      ['BR-CNPJ-FOR-PERSON', { ...individual, cpf_cnpj: '12.345.678/0001-95' }, ['cpf_cnpj']],
      ['BR-NO-CPF', { ...individual, cpf_cnpj: undefined }, ['cpf_cnpj']],
      ['BR-BANK', { ...individual, bank_code: '999' }, ['bank_code']],
      ['BR-NO-BANK', { ...individual, bank_code: undefined }, ['bank_code']],
      [
        'BR-BOTH',
        { ...company, bank_code: '999', cpf_cnpj: '00.000.000/0000-01' },
        ['bank_code', 'cpf_cnpj'],
      ],
    ];
    for (const [outTradeNo, body, fields] of cases) {
      await expectRefused(m, { ...body, out_trade_no: outTradeNo }, fields, held);
    }
    expect(await payoutsOf(m.merchant.id)).toHaveLength(3);
  });

  it('VN: a NAPAS bank (970436) is accepted; a bank not on the list is refused', async () => {
    const m = await payer('VN', 100_000_000n);
    const payee = {
      amount: '500000',
      account_type: 'individual',
      payee_name: 'Nguyen Van A',
      account_no: '0071000123456',
      bank_code: '970436',
    };
    const accepted = await gatewayPayout(m, { ...payee, out_trade_no: 'VN-OK' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // 1% of 500,000 + 5; VND has no minor unit.
    expect(accepted.json().data).toMatchObject({ currency: 'VND', amount: '500000', fee: '5005' });
    const held = { available: '99494995', locked: '505005' };
    expect(await balance(m)).toMatchObject(held);
    const refused = await expectRefused(
      m,
      { ...payee, bank_code: '970999', out_trade_no: 'VN-BANK' },
      ['bank_code'],
      held,
    );
    expect(refused.errors.bank_code[0]).toMatch(/NAPAS/);
    await expectRefused(
      m,
      { ...payee, bank_code: undefined, out_trade_no: 'VN-NO-BANK' },
      ['bank_code'],
      held,
    );
    // A decimal amount is not a VND amount.
    const decimals = await gatewayPayout(m, { ...payee, amount: '500000.50', out_trade_no: 'VN-DEC' });
    expect(decimals.statusCode).toBe(422);
    expect(await payoutsOf(m.merchant.id)).toHaveLength(1);
  });

  it('CN: a payee without bank_name is refused with errors.bank_name; the branch is optional', async () => {
    const m = await payer('CN', 100_000n);
    const payee = { amount: '100.00', ...CN_PAYEE };
    const before = { available: '1000.00', locked: '0.00' };
    await expectRefused(
      m,
      { ...payee, bank_name: undefined, out_trade_no: 'CN-NO-BANK-NAME' },
      ['bank_name'],
      before,
    );
    await expectRefused(
      m,
      { ...payee, bank_name: '   ', out_trade_no: 'CN-BLANK-BANK-NAME' },
      ['bank_name'],
      before,
    );
    expect(await payoutsOf(m.merchant.id)).toHaveLength(0);
    const accepted = await gatewayPayout(m, { ...payee, out_trade_no: 'CN-OK' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const noBranch = await gatewayPayout(m, {
      ...payee,
      branch_name: undefined,
      out_trade_no: 'CN-NO-BRANCH',
    });
    expect(noBranch.statusCode, noBranch.body).toBe(201);
  });
});

// ---- The console form behind the step-up

const CN_FORM = { channel: 'sandbox-pay', ...CN_PAYEE };
const PAY = 'pay-123456';

/** A CNY merchant's ROOT, logged in, with two-factor on and a payment password; codes from later periods. */
async function consoleUser() {
  const clock = freezeClock();
  const m = await payer('CN', 100_000n);
  const client = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
  const { secret, nextCode } = await setUpStepUp(client, clock, PAY);
  return { m, client, clock, secret, nextCode };
}

const consolePayout = (client: TestClient, body: Record<string, unknown>) =>
  client.post('/api/merchant/payouts', { ...CN_FORM, amount: '20.00', ...body });

async function holdsOf(merchantId: number) {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from holds where merchant_id = ${merchantId}`,
  );
  return row.n;
}

describe('the console form: wrong payment passwords and the Google code', () => {
  it('five wrong payment passwords in a row lock money actions for 30 minutes: 423 payment_locked with Retry-After, even for the right password', async () => {
    const { m, client, clock, nextCode } = await consoleUser();
    for (let i = 1; i <= 4; i++) {
      const wrong = await consolePayout(client, {
        payment_password: `wrong-${i}-pass`,
        code: await nextCode(),
      });
      expect(wrong.statusCode, wrong.body).toBe(422);
      expect(wrong.json().errors.payment_password[0]).toMatch(new RegExp(`${5 - i} attempts? left`));
    }
    const fifth = await consolePayout(client, { payment_password: 'wrong-5-pass', code: await nextCode() });
    expect(fifth.statusCode, fifth.body).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'payment_locked' });
    expect(fifth.json().message).toMatch(/30 more minutes/);
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(29 * 60);
    expect(Number(fifth.headers['retry-after'])).toBeLessThanOrEqual(30 * 60);

    // The right password (and a fresh code) changes nothing while the lock lasts.
    const right = await consolePayout(client, { payment_password: PAY, code: await nextCode() });
    expect(right.statusCode, right.body).toBe(423);
    expect(right.json().code).toBe('payment_locked');
    clock.advance(28 * 60_000);
    const later = await consolePayout(client, { payment_password: PAY, code: await nextCode() });
    expect(later.statusCode, later.body).toBe(423);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Every money action, not only payouts: revealing the access key secret too.
    const secret = await client.get(
      `/api/merchant/access-key/secret?payment_password=${PAY}&code=${await nextCode()}`,
    );
    expect(secret.statusCode, secret.body).toBe(423);

    // Nothing was created or held.
    expect(await payoutsOf(m.merchant.id)).toHaveLength(0);
    expect(await holdsOf(m.merchant.id)).toBe(0);
    expect(await balance(m)).toMatchObject({ available: '1000.00', locked: '0.00' });

    // After the 30 minutes the right password works again.
    clock.advance(2 * 60_000);
    const unlocked = await consolePayout(client, { payment_password: PAY, code: await nextCode() });
    expect(unlocked.statusCode, unlocked.body).toBe(201);
    expect(await balance(m)).toMatchObject({ available: '979.30', locked: '20.70' });
  });

  it('the five wrong payment passwords count across Send money and Withdraw, and the lock holds on both', async () => {
    const { m, client, nextCode } = await consoleUser();
    const withdraw = async (paymentPassword: string) =>
      client.post('/api/merchant/withdrawals', {
        amount: '10',
        currency: 'USDT',
        network: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        payment_password: paymentPassword,
        code: await nextCode(),
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const wrong =
        i % 2 === 1
          ? await consolePayout(client, { payment_password: `wrong-${i}-pass`, code: await nextCode() })
          : await withdraw(`wrong-${i}-pass`);
      statuses.push(wrong.statusCode);
      if (i < 5)
        expect(wrong.json().errors.payment_password[0]).toMatch(new RegExp(`${5 - i} attempts? left`));
    }
    expect(statuses).toEqual([422, 422, 422, 422, 423]);
    const payout = await consolePayout(client, { payment_password: PAY, code: await nextCode() });
    expect(payout.statusCode, payout.body).toBe(423);
    const withdrawal = await withdraw(PAY);
    expect(withdrawal.statusCode, withdrawal.body).toBe(423);
    expect(withdrawal.json().code).toBe('payment_locked');
    expect(await holdsOf(m.merchant.id)).toBe(0);
  });

  it('a Google code works once: the same code on a second payout is refused with 422 errors.code, even with the right payment password', async () => {
    const { m, client, nextCode } = await consoleUser();
    const code = await nextCode();
    const first = await consolePayout(client, { payment_password: PAY, code });
    expect(first.statusCode, first.body).toBe(201);
    // Another amount: not a near-duplicate, so only the code can refuse it. The clock has not moved.
    const again = await consolePayout(client, { amount: '30.00', payment_password: PAY, code });
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json().errors.code).toBeDefined();
    expect(again.json().errors.payment_password).toBeUndefined();
    expect(await payoutsOf(m.merchant.id)).toHaveLength(1);
    expect(await holdsOf(m.merchant.id)).toBe(1);
    expect(await balance(m)).toMatchObject({ available: '979.30', locked: '20.70' });
    // The next period's code works.
    const next = await consolePayout(client, {
      amount: '30.00',
      payment_password: PAY,
      code: await nextCode(),
    });
    expect(next.statusCode, next.body).toBe(201);
  });
});

// ---- Callbacks

/** The callback events of a payout, oldest first. */
const eventsOf = (tradeNo: string) =>
  queryRows<{ id: string; type: string; status: string; url: string }>(
    ctx.database.db,
    sql`select e.id, e.type, e.status, e.url from callback_events e
          join payouts p on p.id = e.ref_id and e.ref_type = 'payout'
         where p.trade_no = ${tradeNo}
         order by e.created_at, e.id`,
  );

/** Delivers the event once through the callbacks service; answers what the receiver got. */
async function deliver(m: GatewayMerchant, eventId: string) {
  const before = receiver.received.length;
  const result = await ctx.app.services.callbacks.attempt(eventId);
  expect(result).toMatchObject({ ok: true, statusCode: 200, attempt: 1 });
  const got = receiver.received.slice(before);
  expect(got).toHaveLength(1);
  const [request] = got;
  expect(request.path).toBe('/paydesk/notify');
  expect(request.headers['webhook-id']).toBe(eventId);
  // As a merchant verifies it: Standard Webhooks, keyed with the webhook secret shown beside the key.
  expect(request.headers['webhook-signature']).toBe(
    signWebhook({
      id: eventId,
      timestamp: Number(request.headers['webhook-timestamp']),
      body: request.body,
      secret: m.webhookSecret,
    }),
  );
  return JSON.parse(request.body) as {
    id: string;
    type: string;
    created_at: string;
    data: Record<string, unknown>;
  };
}

describe('payout callbacks to the notify_url', () => {
  const payee = { amount: '100.00', ...CN_PAYEE };

  it('success sends payout.succeeded, a refund payout.refunded; nothing is sent on the way to processing', async () => {
    const m = await payer('CN', 100_000n);
    const created = await gatewayPayout(m, { ...payee, out_trade_no: 'CB-OK', notify_url: receiver.url });
    expect(created.statusCode, created.body).toBe(201);
    const tradeNo = created.json().data.trade_no as string;
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });
    expect(await eventsOf(tradeNo)).toEqual([]);
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });

    const [succeeded] = await eventsOf(tradeNo);
    expect(succeeded).toMatchObject({ type: 'payout.succeeded', status: 'pending', url: receiver.url });
    const body = await deliver(m, succeeded.id);
    expect(body).toMatchObject({
      id: succeeded.id,
      type: 'payout.succeeded',
      data: {
        trade_no: tradeNo,
        out_trade_no: 'CB-OK',
        status: 'success',
        amount: '100.00',
        fee: '1.50',
        currency: 'CNY',
        account_no: '***************3445',
        failure_reason: null,
      },
    });
    expect(body.data.finished_at).not.toBeNull();

    await ctx.app.services.payouts.transition(tradeNo, 'refund_received', 'Returned by the bank');
    const events = await eventsOf(tradeNo);
    expect(events.map((e) => [e.type, e.status])).toEqual([
      ['payout.succeeded', 'delivered'],
      ['payout.refunded', 'pending'],
    ]);
    const refunded = await deliver(m, events[1].id);
    expect(refunded).toMatchObject({
      type: 'payout.refunded',
      data: { trade_no: tradeNo, status: 'refund_received', failure_reason: 'Returned by the bank' },
    });
    // A delivered event is not sent again.
    expect(await ctx.app.services.callbacks.attempt(succeeded.id)).toBeNull();
    expect(await balance(m)).toMatchObject({ available: '998.50', locked: '0.00' });
  });

  it('an account ending in 0000 sends payout.failed with the reason', async () => {
    const m = await payer('CN', 100_000n);
    const created = await gatewayPayout(m, {
      ...payee,
      account_no: '6222020200112230000',
      out_trade_no: 'CB-0000',
      notify_url: receiver.url,
    });
    expect(created.statusCode, created.body).toBe(201);
    const tradeNo = created.json().data.trade_no as string;
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });
    const events = await eventsOf(tradeNo);
    expect(events.map((e) => e.type)).toEqual(['payout.failed']);
    const body = await deliver(m, events[0].id);
    expect(body).toMatchObject({
      type: 'payout.failed',
      data: { trade_no: tradeNo, out_trade_no: 'CB-0000', status: 'failed' },
    });
    expect(body.data.failure_reason).toMatch(/0000/);
    expect(await balance(m)).toMatchObject({ available: '1000.00', locked: '0.00' });
  });
});

// ---- ops sandbox:complete on a payout

/** Runs the command line against the test app in this process (as ops-receive.test.ts does). */
const ops = opsRunner(
  () => ctx.app,
  () => operatorToken,
  'tester',
);

const complete = (tradeNo: string, result: string) =>
  ops(
    'sandbox:complete',
    '--trade-no',
    tradeNo,
    '--result',
    result,
    '--reason',
    'payout test',
    '--operator',
    'Olga Ops',
  );

/** A CNY merchant with 1,000.00 and a pending gateway payout of 100.00 (fee 1.50). */
async function pendingPayout(outTradeNo: string) {
  const m = await payer('CN', 100_000n);
  const created = await gatewayPayout(m, {
    amount: '100.00',
    ...CN_PAYEE,
    out_trade_no: outTradeNo,
  });
  expect(created.statusCode, created.body).toBe(201);
  const tradeNo = created.json().data.trade_no as string;
  const read = async () =>
    (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/payouts/${tradeNo}`)).json().data;
  return { m, tradeNo, read };
}

const operatorActionCount = async () =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from operator_actions where action = 'sandbox.complete'`,
    )
  )[0].n;

describe('ops sandbox:complete on a payout', () => {
  it('--result success then --result refunded move the payout and the balance as the posting table says', async () => {
    const { m, tradeNo, read } = await pendingPayout('OPS-1');
    // Created: available -> locked, amount + fee (a proxy payment deduction fee fund flow).
    expect(await balance(m)).toMatchObject({ available: '898.50', locked: '101.50' });
    expect(await postingsOf(tradeNo)).toEqual({
      deduct: { merchant_available: -10_150n, merchant_locked: 10_150n },
    });

    // Success (through processing): the hold is captured into the channel's clearing account (amount)
    // and fee revenue (fee); no fund flow.
    const success = await complete(tradeNo, 'success');
    expect(success.err).toBe('');
    expect(success.code).toBe(0);
    expect(success.out).toBe(`${tradeNo} is now success.`);
    expect(await read()).toMatchObject({ status: 'success', failure_reason: null });
    expect(await balance(m)).toMatchObject({ available: '898.50', locked: '0.00' });
    expect(await postingsOf(tradeNo)).toEqual({
      deduct: { merchant_available: -10_150n, merchant_locked: 10_150n },
      success: { merchant_locked: -10_150n, channel_clearing: 10_000n, fee_revenue: 150n },
    });

    // Refunded: the amount comes back from the channel's clearing account; the fee is kept.
    const refunded = await complete(tradeNo, 'refunded');
    expect(refunded.err).toBe('');
    expect(refunded.code).toBe(0);
    expect(refunded.out).toBe(`${tradeNo} is now refund_received.`);
    expect((await read()).status).toBe('refund_received');
    expect(await balance(m)).toMatchObject({ available: '998.50', locked: '0.00' });
    expect(await postingsOf(tradeNo)).toEqual({
      deduct: { merchant_available: -10_150n, merchant_locked: 10_150n },
      success: { merchant_locked: -10_150n, channel_clearing: 10_000n, fee_revenue: 150n },
      refund: { channel_clearing: -10_000n, merchant_available: 10_000n },
    });
    const flows = await queryRows<{ type: string; amount: string; after: string }>(
      ctx.database.db,
      sql`select type, amount_minor::text as amount, available_after_minor::text as after
            from fund_flows where merchant_id = ${m.merchant.id} order by id`,
    );
    expect(flows).toEqual([
      { type: 'transfer_in', amount: '100000', after: '100000' },
      { type: 'payout_deduction', amount: '-10150', after: '89850' },
      { type: 'payout_refund', amount: '10000', after: '99850' },
    ]);

    // Nothing further: a refunded payout cannot be refunded again (409, exit 1, nothing changes).
    const again = await complete(tradeNo, 'refunded');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^Error \(409\): /);
    expect(await balance(m)).toMatchObject({ available: '998.50', locked: '0.00' });
    expect((await verifyLedger(ctx.database.db)).problems).toEqual([]);
  });

  it('--result paid on a payout is refused on --result (a collection result), and nothing changes', async () => {
    const { m, tradeNo, read } = await pendingPayout('OPS-2');
    const actions = await operatorActionCount();
    const paid = await complete(tradeNo, 'paid');
    expect(paid.code).toBe(2);
    expect(paid.out).toBe('');
    // Refused for its result, not for its number: a P... number is a valid --trade-no.
    expect(paid.err.split('\n')[0]).toMatch(/^Error: --result: /);
    expect(paid.err).not.toContain('--trade-no:');
    expect((await read()).status).toBe('pending');
    expect(await balance(m)).toMatchObject({ available: '898.50', locked: '101.50' });
    expect(await operatorActionCount()).toBe(actions);
  });
});
