import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import {
  merchantBlocks,
  merchantLimits,
  merchants,
  operatorActions,
  securityEvents,
  users,
} from '../../src/db/schema/index.ts';
import { createLedger, verifyLedger } from '../../src/modules/ledger/index.ts';
import { createLimitsService } from '../../src/modules/limits/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { createWithdrawalsService } from '../../src/modules/withdrawals/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { opsRunner } from '../helpers/ops.ts';
import { freezeClock, releaseClock, setUpStepUp, totpCode } from '../helpers/two-factor.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Limits and risk rules (DESIGN 14): each limit refuses with 422 limit_exceeded naming it, a block list
// entry with 422 blocked naming the list, and a refusal writes nothing (no order, no hold, no fund flow,
// the day's usage unchanged). Daily limits follow the merchant's local day (an injected clock across
// midnight in UTC+8, UTC-3 and UTC+5:30); racing payouts never pass a daily cap; operators' changes are
// audited and bad input is refused naming the field.

let ctx: TestContext;
let token: string;
/** The app's clock, moved by the tests. */
let clock = new Date('2026-11-27T04:00:00Z');
const now = () => clock;

beforeAll(async () => {
  ctx = await createTestApp({ USDT_RATES: 'CNY:7.2', WITHDRAWAL_MIN_USDT: '1' }, { now });
  token = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
});
afterAll(() => ctx?.close());

const ops = (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, operator = 'Rita Risk') =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'x-operator': operator },
    ...(body ? { payload: body } : {}),
  });

async function setLimits(m: GatewayMerchant, kind: string, limits: Record<string, unknown>) {
  const answer = await ops('POST', '/ops/v1/limits', {
    merchant: m.merchant.no,
    kind,
    ...limits,
    reason: 'risk review',
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data;
}

/** A CNY merchant with a payout channel (1% + 0.50) and 100,000.00 available, in `timezone`. */
async function payer(timezone = 'Asia/Shanghai'): Promise<GatewayMerchant> {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { roles: ['ROOT', 'VIEWER'] });
  await ctx.database.db.update(merchants).set({ timezone }).where(eq(merchants.id, m.merchant.id));
  await openPayoutChannel(ctx.database.db, m.merchant.id);
  await fundMerchant(ctx.database.db, m.merchant.id, 10_000_000n);
  return m;
}

let sequence = 0;
const payout = (m: GatewayMerchant, body: Record<string, unknown> = {}) =>
  gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: { out_trade_no: `L-${++sequence}`, amount: '100.00', ...CN_PAYEE, ...body },
    now,
  });

/** What a refusal must leave as it was. */
async function stateOf(merchantId: number) {
  const [row] = await queryRows<{ payouts: number; collections: number; flows: number; usage: string }>(
    ctx.database.db,
    sql`select (select count(*)::int from payouts where merchant_id = ${merchantId}) as payouts,
               (select count(*)::int from collections where merchant_id = ${merchantId}) as collections,
               (select count(*)::int from fund_flows where merchant_id = ${merchantId}) as flows,
               (select coalesce(sum(amount_minor), 0)::text || '/' || coalesce(sum(count), 0)::text
                  from limit_usage where merchant_id = ${merchantId}) as usage`,
  );
  const [balance] = await queryRows<{ available: string; locked: string }>(
    ctx.database.db,
    sql`select (select balance_minor::text from ledger_accounts where merchant_id = ${merchantId}
                  and kind = 'merchant_available') as available,
               (select balance_minor::text from ledger_accounts where merchant_id = ${merchantId}
                  and kind = 'merchant_locked') as locked`,
  );
  return { ...row, ...balance };
}

async function expectRefused(
  call: () => Promise<{
    statusCode: number;
    body: string;
    json(): { code: string; limit?: string; list?: string };
  }>,
  merchantId: number,
  refusal: { limit: string } | { list: string },
) {
  const before = await stateOf(merchantId);
  const answer = await call();
  expect(answer.statusCode, answer.body).toBe(422);
  const body = answer.json();
  if ('limit' in refusal) expect(body).toMatchObject({ code: 'limit_exceeded', limit: refusal.limit });
  else expect(body).toMatchObject({ code: 'blocked', list: refusal.list });
  expect(await stateOf(merchantId)).toEqual(before);
}

describe('payout limits', () => {
  it('refuses a payout over the daily cap with the limit named, counting the day’s payouts before the cap was set', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    // Served by the one-statement way (its channel is remembered from here on), before any limit.
    expect((await payout(m)).statusCode).toBe(201);
    await setLimits(m, 'payout', { daily_amount: '250.00' });
    // The day's first payout counts: 100.00 used, 150.00 left.
    expect((await payout(m)).statusCode).toBe(201);
    await expectRefused(() => payout(m), m.merchant.id, { limit: 'daily_amount' });
    const refused = await payout(m);
    expect(refused.json().message).toBe(
      "This payout would pass today's limit of 250.00 CNY (50.00 CNY left today).",
    );
    // What is left still goes.
    expect((await payout(m, { amount: '50.00' })).statusCode).toBe(201);
    await expectRefused(() => payout(m, { amount: '1.00' }), m.merchant.id, { limit: 'daily_amount' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('refuses below the minimum and above the maximum per order, the daily count and the payee count', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    await setLimits(m, 'payout', {
      per_order_min: '10.00',
      per_order_max: '500.00',
      daily_count: 3,
      payee_daily_count: 2,
    });
    await expectRefused(() => payout(m, { amount: '9.99' }), m.merchant.id, { limit: 'per_order_min' });
    await expectRefused(() => payout(m, { amount: '500.01' }), m.merchant.id, { limit: 'per_order_max' });
    expect((await payout(m, { amount: '500.00' })).statusCode).toBe(201);
    expect((await payout(m, { amount: '10.00' })).statusCode).toBe(201);
    // A third payout to the same account on the day.
    await expectRefused(() => payout(m), m.merchant.id, { limit: 'payee_daily_count' });
    expect((await payout(m, { account_no: '6222020200112239999' })).statusCode).toBe(201);
    await expectRefused(() => payout(m, { account_no: '6222020200112238888' }), m.merchant.id, {
      limit: 'daily_count',
    });
  });

  it('counts the day’s payouts to a payee when a payees-per-day limit is added to limits already set', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    // Yesterday (local) and today, under a daily amount limit: counted for the day, not per payee.
    clock = new Date('2026-11-26T10:00:00Z');
    expect((await payout(m)).statusCode).toBe(201);
    await setLimits(m, 'payout', { daily_amount: '10000.00' });
    clock = new Date('2026-11-27T04:00:00Z');
    for (let i = 0; i < 2; i++) expect((await payout(m)).statusCode).toBe(201);
    expect((await payout(m, { account_no: '6222020200112239999' })).statusCode).toBe(201);
    await setLimits(m, 'payout', { payee_daily_count: 2 });
    // Today's two payouts to the account count: a third is refused; another account has one left.
    await expectRefused(() => payout(m), m.merchant.id, { limit: 'payee_daily_count' });
    expect((await payout(m, { account_no: '6222020200112239999' })).statusCode).toBe(201);
    await expectRefused(() => payout(m, { account_no: '6222020200112239999' }), m.merchant.id, {
      limit: 'payee_daily_count',
    });
    // The day's own count was kept as it was (four payouts, 400.00), not read again.
    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const shown = (await root.get('/api/merchant/limits?kind=payout')).json().data;
    expect(shown).toMatchObject({ used_amount: '400.00', used_count: 4, payee_daily_count: 2 });
    // The next local day starts again from zero.
    clock = new Date('2026-11-27T16:30:00Z');
    for (let i = 0; i < 2; i++) expect((await payout(m)).statusCode).toBe(201);
    await expectRefused(() => payout(m), m.merchant.id, { limit: 'payee_daily_count' });
  });

  it('keeps the console form and the gateway under the same limits, and shows what applies', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    await setLimits(m, 'payout', { per_order_max: '300.00', daily_amount: '1000.00', daily_count: 5 });
    expect((await payout(m, { amount: '200.00' })).statusCode).toBe(201);
    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const shown = await root.get('/api/merchant/limits?kind=payout');
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toEqual({
      kind: 'payout',
      currency: 'CNY',
      day: '2026-11-27',
      per_order_min: null,
      per_order_max: '300.00',
      daily_amount: '1000.00',
      daily_count: 5,
      payee_daily_count: null,
      used_amount: '200.00',
      used_count: 1,
      remaining_amount: '800.00',
      remaining_count: 4,
    });
    // The read-only role cannot send payouts, so it is not shown their limits; collections' it may see.
    const viewer = await loginAs(ctx.app, m.users.VIEWER.email, TEST_PASSWORD);
    expect((await viewer.get('/api/merchant/limits?kind=payout')).statusCode).toBe(403);
    expect((await viewer.get('/api/merchant/limits?kind=collection')).statusCode).toBe(200);
    expect((await root.get('/api/merchant/limits?kind=refund')).statusCode).toBe(422);
  });

  it('keeps the modes apart: a live limit does not apply to test mode', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    await setLimits(m, 'payout', { per_order_max: '50.00' });
    await expectRefused(() => payout(m), m.merchant.id, { limit: 'per_order_max' });
    const [twin] = await ctx.database.db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.liveMerchantId, m.merchant.id));
    const rows = await ctx.database.db
      .select()
      .from(merchantLimits)
      .where(eq(merchantLimits.merchantId, twin.id));
    expect(rows).toEqual([]);
  });
});

describe('the console refuses what a limit or block list refuses before the step-up', () => {
  /** A signed-in ROOT user with two-factor and a payment password, the clock frozen mid-step. */
  async function stepUpUser(m: GatewayMerchant, frozen: ReturnType<typeof freezeClock>) {
    const client = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const { secret } = await setUpStepUp(client, frozen, 'pay-123456');
    frozen.nextStep();
    return { client, secret };
  }
  /** What the step-up counts: wrong payment passwords and codes, each a security event. */
  const stepUpCounts = async (userId: number) => {
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
    const events = await ctx.database.db
      .select({ type: securityEvents.type })
      .from(securityEvents)
      .where(eq(securityEvents.userId, userId));
    return {
      failures: user.paymentPasswordFailures,
      events: events.map((e) => e.type).filter((type) => type.startsWith('payment_password')),
    };
  };

  it('a payout over the per-order maximum is 422 limit_exceeded whatever the code, and spends no code', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const frozen = freezeClock();
    try {
      const m = await payer();
      const { client, secret } = await stepUpUser(m, frozen);
      await setLimits(m, 'payout', { per_order_max: '300.00' });
      const blockedAccount = '6222020200112237777';
      const added = await ops('POST', '/ops/v1/blocks', {
        merchant: m.merchant.no,
        list: 'payee_account',
        value: blockedAccount,
        reason: 'fraud report',
      });
      expect(added.statusCode).toBe(201);
      const form = { channel: 'sandbox-pay', amount: '300.01', ...CN_PAYEE, payment_password: 'pay-123456' };
      const before = await stepUpCounts(m.users.ROOT.id);
      // A wrong Google code and a wrong payment password: the limit answers, not the step-up.
      await expectRefused(
        () =>
          client.post('/api/merchant/payouts', { ...form, payment_password: 'wrong-wrong', code: '000000' }),
        m.merchant.id,
        { limit: 'per_order_max' },
      );
      // The right code, refused all the same: the code is not spent by a refusal.
      const code = await totpCode(secret);
      await expectRefused(() => client.post('/api/merchant/payouts', { ...form, code }), m.merchant.id, {
        limit: 'per_order_max',
      });
      await expectRefused(
        () =>
          client.post('/api/merchant/payouts', {
            ...form,
            amount: '10.00',
            account_no: blockedAccount,
            code,
          }),
        m.merchant.id,
        { list: 'payee_account' },
      );
      expect(await stepUpCounts(m.users.ROOT.id)).toEqual(before);
      // The same code then sends a payout within the limit; the code is single-use, so only now spent.
      const sent = await client.post('/api/merchant/payouts', { ...form, amount: '300.00', code });
      expect(sent.statusCode, sent.body).toBe(201);
      const reused = await client.post('/api/merchant/payouts', {
        ...form,
        amount: '20.00',
        code,
        confirm_duplicate: true,
      });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().code).toBe('invalid_code');
    } finally {
      releaseClock();
    }
  });

  it('a withdrawal over its limit or to a blocked wallet is refused before the step-up too', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const frozen = freezeClock();
    try {
      const m = await payer();
      const { client, secret } = await stepUpUser(m, frozen);
      await setLimits(m, 'withdrawal', { per_order_max: '50', daily_count: 1 });
      const ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
      const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
      await ops('POST', '/ops/v1/blocks', {
        merchant: m.merchant.no,
        list: 'wallet_address',
        value: ETH,
        reason: 'sanctioned address',
      });
      const form = { currency: 'USDT', network: 'TRC20', address: TRON, payment_password: 'pay-123456' };
      const before = await stepUpCounts(m.users.ROOT.id);
      await expectRefused(
        () =>
          client.post('/api/merchant/withdrawals', {
            ...form,
            amount: '50.5',
            payment_password: 'wrong-wrong',
            code: '000000',
          }),
        m.merchant.id,
        { limit: 'per_order_max' },
      );
      const code = await totpCode(secret);
      await expectRefused(
        () =>
          client.post('/api/merchant/withdrawals', {
            ...form,
            network: 'ERC20',
            address: ETH,
            amount: '10',
            code,
          }),
        m.merchant.id,
        { list: 'wallet_address' },
      );
      expect(await stepUpCounts(m.users.ROOT.id)).toEqual(before);
      const sent = await client.post('/api/merchant/withdrawals', { ...form, amount: '10', code });
      expect(sent.statusCode, sent.body).toBe(201);
      // The day's count is used: the next is refused before its (fresh, valid) code is spent.
      frozen.nextStep();
      const next = await totpCode(secret);
      await expectRefused(
        () => client.post('/api/merchant/withdrawals', { ...form, amount: '10', code: next }),
        m.merchant.id,
        { limit: 'daily_count' },
      );
      await setLimits(m, 'withdrawal', { daily_count: 2 });
      const after = await client.post('/api/merchant/withdrawals', { ...form, amount: '10', code: next });
      expect(after.statusCode, after.body).toBe(201);
    } finally {
      releaseClock();
    }
  });
});

describe('daily limits follow the merchant’s local day', () => {
  it.each([
    ['Asia/Shanghai', 'UTC+8', '2026-11-27T16:00:00Z'],
    ['America/Sao_Paulo', 'UTC-3', '2026-11-28T03:00:00Z'],
    ['Asia/Kolkata', 'UTC+5:30', '2026-11-27T18:30:00Z'],
  ])('%s (%s): the count starts again at local midnight, not before', async (zone, _offset, midnight) => {
    const at = new Date(midnight).getTime();
    clock = new Date(at - 60_000);
    const m = await payer(zone);
    await setLimits(m, 'payout', { daily_count: 1, daily_amount: '150.00' });
    expect((await payout(m)).statusCode).toBe(201);
    await expectRefused(() => payout(m, { amount: '10.00' }), m.merchant.id, { limit: 'daily_count' });
    // A second before midnight: still the same day.
    clock = new Date(at - 1_000);
    await expectRefused(() => payout(m, { amount: '10.00' }), m.merchant.id, { limit: 'daily_count' });
    // Midnight: a new day, a new count and amount.
    clock = new Date(at);
    expect((await payout(m)).statusCode).toBe(201);
    await expectRefused(() => payout(m, { amount: '10.00' }), m.merchant.id, { limit: 'daily_count' });
    clock = new Date(at + 60_000);
    await expectRefused(() => payout(m, { amount: '10.00' }), m.merchant.id, { limit: 'daily_count' });
    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const shown = (await root.get('/api/merchant/limits?kind=payout')).json().data;
    expect(shown).toMatchObject({ used_count: 1, remaining_count: 0, remaining_amount: '50.00' });
  });
});

describe('20 payouts racing a daily cap', () => {
  it('never pass it: exactly what fits is created, the rest refused, and the books balance', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    // Its channel remembered, so the race would take the one-statement (and group-committed) way.
    expect((await payout(m, { amount: '1.00' })).statusCode).toBe(201);
    // 1.00 used: ten payouts of 100.00 fit exactly.
    await setLimits(m, 'payout', { daily_amount: '1001.00' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        payout(m, { amount: '100.00', account_no: `62220202001122${String(10_000 + i)}` }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    for (const refused of answers.filter((a) => a.statusCode === 422)) {
      expect(refused.json()).toMatchObject({ code: 'limit_exceeded', limit: 'daily_amount' });
    }
    const [sum] = await queryRows<{ total: string; n: number }>(
      ctx.database.db,
      sql`select sum(amount_minor)::text as total, count(*)::int as n from payouts
           where merchant_id = ${m.merchant.id} and amount_minor = 10000`,
    );
    expect(sum).toEqual({ total: '100000', n: 10 });
    const verified = await verifyLedger(ctx.database.db);
    expect(verified.ok, JSON.stringify(verified)).toBe(true);
  });
});

describe('block lists', () => {
  it('refuse a payout to a blocked payee account, and nothing else', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    expect((await payout(m)).statusCode).toBe(201);
    const added = await ops('POST', '/ops/v1/blocks', {
      merchant: m.merchant.no,
      list: 'payee_account',
      value: '6222 0202 0011 2233 445',
      reason: 'reported fraud',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({
      list: 'payee_account',
      value: '6222020200112233445',
      added: true,
    });
    await expectRefused(() => payout(m), m.merchant.id, { list: 'payee_account' });
    expect((await payout(m, { account_no: '6222020200112230001' })).statusCode).toBe(201);
    // Taken off the list, it goes again.
    const removed = await ops('POST', '/ops/v1/blocks/remove', {
      merchant: m.merchant.no,
      list: 'payee_account',
      value: '6222020200112233445',
      reason: 'cleared by compliance',
    });
    expect(removed.statusCode, removed.body).toBe(201);
    expect((await payout(m)).statusCode).toBe(201);
  });

  it('refuse a collection whose payer IP is in a blocked block', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    const collect = (payerIp?: string) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
        body: {
          out_trade_no: `LC-${++sequence}`,
          amount: '100.00',
          ...(payerIp ? { payer_ip: payerIp } : {}),
        },
        now,
      });
    expect((await collect('203.0.113.9')).statusCode).toBe(201);
    expect(
      (
        await ops('POST', '/ops/v1/blocks', {
          merchant: m.merchant.no,
          list: 'payer_ip',
          value: '203.0.113.0/24',
          reason: 'card testing',
        })
      ).statusCode,
    ).toBe(201);
    await expectRefused(() => collect('203.0.113.77'), m.merchant.id, { list: 'payer_ip' });
    expect((await collect('198.51.100.1')).statusCode).toBe(201);
    expect((await collect()).statusCode).toBe(201);
    const bad = await collect('not-an-ip');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('payer_ip');
  });

  it('refuse a withdrawal to a blocked wallet address, and the withdrawal limits are USDT', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    const service = createWithdrawalsService({
      db: ctx.database.db,
      ledger: createLedger(),
      settings: ctx.config.withdrawals,
      now,
      limits: createLimitsService({ db: ctx.database.db, now }),
    });
    const ref = { id: m.merchant.id, no: m.merchant.no, currency: 'CNY' as const, timezone: 'Asia/Shanghai' };
    const ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const request = (amount: string, network: 'TRC20' | 'ERC20', address: string) =>
      service.request(ref, { amount, network, address }, { userId: m.users.ROOT.id, client: null });
    expect(
      (
        await ops('POST', '/ops/v1/blocks', {
          merchant: m.merchant.no,
          list: 'wallet_address',
          value: ETH,
          reason: 'sanctioned address',
        })
      ).statusCode,
    ).toBe(201);
    await setLimits(m, 'withdrawal', { per_order_max: '50', daily_amount: '60' });
    const refusal = async (call: () => Promise<unknown>) => {
      const before = await stateOf(m.merchant.id);
      const error = (await call().then(
        () => undefined,
        (e: unknown) => e,
      )) as { status: number; code: string; fields: Record<string, unknown> };
      expect(await stateOf(m.merchant.id)).toEqual(before);
      return { status: error.status, code: error.code, ...error.fields };
    };
    // The same address in lower case is the same wallet.
    expect(await refusal(() => request('10', 'ERC20', ETH.toLowerCase()))).toEqual({
      status: 422,
      code: 'blocked',
      list: 'wallet_address',
    });
    expect(await refusal(() => request('50.000001', 'TRC20', TRON))).toEqual({
      status: 422,
      code: 'limit_exceeded',
      limit: 'per_order_max',
    });
    await request('50', 'TRC20', TRON);
    expect(await refusal(() => request('10.5', 'TRC20', TRON))).toEqual({
      status: 422,
      code: 'limit_exceeded',
      limit: 'daily_amount',
    });
    await request('10', 'TRC20', TRON);
  });
});

describe('the day counters', () => {
  it('are swept by housekeeping once 40 days old, and today’s kept', async () => {
    clock = new Date('2026-11-27T04:00:00Z');
    const m = await payer();
    await setLimits(m, 'payout', { daily_count: 5 });
    expect((await payout(m)).statusCode).toBe(201);
    await ctx.database.db.execute(
      sql`insert into limit_usage (merchant_id, kind, day, subject, amount_minor, count)
          values (${m.merchant.id}, 'payout', '2026-10-01', '', 500, 1)`,
    );
    await ctx.app.services.housekeeping();
    const days = await queryRows<{ day: string }>(
      ctx.database.db,
      sql`select day::text as day from limit_usage where merchant_id = ${m.merchant.id} and subject = ''`,
    );
    expect(days.map((d) => d.day)).toEqual(['2026-11-27']);
  });
});

describe('operators set them', () => {
  const actionsOf = (merchantId: number) =>
    ctx.database.db.select().from(operatorActions).where(eq(operatorActions.merchantId, merchantId));

  it('records every change with who, why and what', async () => {
    const m = await payer();
    await setLimits(m, 'payout', { daily_amount: '500.00', daily_count: 10 });
    const cleared = await ops('POST', '/ops/v1/limits/clear', {
      merchant: m.merchant.no,
      kind: 'payout',
      limit: 'daily_count',
      reason: 'count no longer needed',
    });
    expect(cleared.statusCode, cleared.body).toBe(201);
    expect(cleared.json().data).toMatchObject({
      daily_amount: '500.00',
      daily_count: null,
      cleared: ['daily_count'],
    });
    const actions = await actionsOf(m.merchant.id);
    expect(actions.map((a) => [a.action, a.operatorName, a.reason])).toEqual([
      ['limit.set', 'Rita Risk', 'risk review'],
      ['limit.clear', 'Rita Risk', 'count no longer needed'],
    ]);
    expect(actions[0].detail).toMatchObject({
      request: { merchant: m.merchant.no, kind: 'payout', daily_amount: '500.00', daily_count: 10 },
    });
    // Clearing the last limit of a kind deletes its row: the one-statement way serves the merchant again.
    await ops('POST', '/ops/v1/limits/clear', {
      merchant: m.merchant.no,
      kind: 'payout',
      reason: 'review over',
    });
    expect(
      await ctx.database.db.select().from(merchantLimits).where(eq(merchantLimits.merchantId, m.merchant.id)),
    ).toEqual([]);
  });

  it.each([
    [{ kind: 'payout', daily_amount: '-1.00' }, 'daily_amount'],
    [{ kind: 'payout', per_order_min: '-0.01' }, 'per_order_min'],
    [{ kind: 'payout', daily_count: -1 }, 'daily_count'],
    [{ kind: 'payout', payee_daily_count: '-3' }, 'payee_daily_count'],
    [{ kind: 'payout', daily_amount: 'lots' }, 'daily_amount'],
    [{ kind: 'payout', per_order_min: '10.00', per_order_max: '5.00' }, 'per_order_min'],
    [{ kind: 'payout', daily_amount: '1.001' }, 'daily_amount'],
    [{ kind: 'collection', payee_daily_count: 1 }, 'payee_daily_count'],
    [{ kind: 'payout' }, 'limit'],
    [{ kind: 'refund', daily_count: 1 }, 'kind'],
  ])('refuses the limit %j naming %s, writing nothing', async (body, field) => {
    const m = await payer();
    const answer = await ops('POST', '/ops/v1/limits', {
      merchant: m.merchant.no,
      ...body,
      reason: 'bad input',
    });
    expect(answer.statusCode, answer.body).toBe(422);
    expect(Object.keys(answer.json().errors)).toContain(field);
    expect(
      await ctx.database.db.select().from(merchantLimits).where(eq(merchantLimits.merchantId, m.merchant.id)),
    ).toEqual([]);
    expect(await actionsOf(m.merchant.id)).toEqual([]);
  });

  it.each([
    ['payer_ip', '300.1.2.3'],
    ['payer_ip', '10.0.0.1/33'],
    ['payer_ip', '10.0.0.1/8'],
    ['payer_ip', 'example.com'],
    ['wallet_address', '0xdAC17F958D2ee523a2206206994597C13D831eC7'],
    ['wallet_address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
    ['wallet_address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['payee_account', '12'],
    ['payee_account', '6222-0202-0011'],
  ])('refuses a %s entry %s naming the value, writing nothing', async (list, value) => {
    const m = await payer();
    const answer = await ops('POST', '/ops/v1/blocks', {
      merchant: m.merchant.no,
      list,
      value,
      reason: 'bad input',
    });
    expect(answer.statusCode, answer.body).toBe(422);
    expect(answer.json().errors).toHaveProperty('value');
    expect(
      await ctx.database.db
        .select()
        .from(merchantBlocks)
        .where(and(eq(merchantBlocks.merchantId, m.merchant.id))),
    ).toEqual([]);
    expect(await actionsOf(m.merchant.id)).toEqual([]);
  });

  it('works from the command line: limit:set, limit:list, block:add, block:list, and a negative limit is refused', async () => {
    const m = await payer();
    const run = opsRunner(
      () => ctx.app,
      () => token,
      'Cora CLI',
    );
    const set = await run(
      'limit:set',
      '--merchant',
      m.merchant.no,
      '--kind',
      'payout',
      '--daily-amount',
      '5000.00',
      '--daily-count',
      '20',
      '--reason',
      'risk review',
    );
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('daily amount 5000.00');
    const listed = await run('limit:list', '--merchant', m.merchant.no);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/payout\s+CNY/);
    const negative = await run(
      'limit:set',
      '--merchant',
      m.merchant.no,
      '--kind',
      'payout',
      '--daily-amount=-5',
      '--reason',
      'risk review',
    );
    expect(negative.code).not.toBe(0);
    expect(negative.err).toContain('--daily-amount');
    const blocked = await run(
      'block:add',
      '--merchant',
      m.merchant.no,
      '--list',
      'payer_ip',
      '--value',
      '2001:db8::/32',
      '--reason',
      'bots',
    );
    expect(blocked.code, blocked.err).toBe(0);
    const blocks = await run('block:list', '--merchant', m.merchant.no);
    expect(blocks.out).toContain('2001:db8::/32');
    const actions = await actionsOf(m.merchant.id);
    expect(actions.map((a) => [a.action, a.operatorName])).toEqual([
      ['limit.set', 'Cora CLI'],
      ['block.add', 'Cora CLI'],
    ]);
  });
});
