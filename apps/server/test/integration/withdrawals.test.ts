import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { merchants, operatorActions, securityEvents } from '../../src/db/schema/index.ts';
import { runOps } from '../../src/cli/ops-commands.ts';
import { injectTransport } from '../../src/cli/transport.ts';
import { createLedger, verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { createWithdrawalsService } from '../../src/modules/withdrawals/index.ts';
import { fundMerchant } from '../factories/gateway.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Withdrawals (DESIGN sections 3, 4, 5 and 10): the form behind the step-up with the wallet address
// vectors, the hold of amount + fee in the merchant's currency, insufficient funds, the operator's
// decisions (one wins of two at once), the ledger entries they make and the merchant's view of them.

let ctx: TestContext;
let opsToken: string;
beforeAll(async () => {
  // 2 USDT a withdrawal, the first of each day free, 7.2 CNY per USDT: 100 USDT holds 720.00 CNY.
  ctx = await createTestApp({
    WITHDRAWAL_FEE_USDT: '2',
    WITHDRAWAL_FREE_PER_DAY: '1',
    WITHDRAWAL_MIN_USDT: '10',
    USDT_RATES: 'CNY:7.2',
  });
  opsToken = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
});
afterAll(() => ctx?.close());
afterEach(() => releaseClock());

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const PAY = 'pay-123456';
const TX_TRON = 'a'.repeat(64);

type Withdrawer = Awaited<ReturnType<typeof withdrawer>>;
type Clock = ReturnType<typeof freezeClock>;

/** A ROOT user with two-factor and a payment password, of a CNY merchant with 1,000.00 available. */
async function withdrawer(fundsMinor = 100_000n, clock: Clock = freezeClock()) {
  const { merchant, users } = await createMerchant(ctx.database.db, { roles: ['ROOT', 'VIEWER'] });
  await fundMerchant(ctx.database.db, merchant.id, fundsMinor);
  const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
  const { nextCode } = await setUpStepUp(client, clock, PAY);
  return { merchant, users, client, nextCode, clock };
}

const withdraw = (client: TestClient, body: Record<string, unknown>) =>
  client.post('/api/merchant/withdrawals', {
    currency: 'USDT',
    network: 'TRC20',
    address: TRON,
    payment_password: PAY,
    ...body,
  });

const balance = async (client: TestClient) =>
  (await client.get('/api/merchant/balance')).json().data as { available: string; locked: string };

const withdrawalCount = async (merchantId: number) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from withdrawals where merchant_id = ${merchantId}`,
    )
  )[0].n;

const ops = (path: string, body: Record<string, unknown>, operator = 'alice') =>
  ctx.app.inject({
    method: 'POST',
    url: `/ops/v1/withdrawals/${path}`,
    headers: { authorization: `Bearer ${opsToken}`, 'x-operator': operator },
    payload: body,
  });

async function requested(w: Withdrawer, body: Record<string, unknown>) {
  const response = await withdraw(w.client, { code: await w.nextCode(), ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { withdrawal_no: string; [key: string]: unknown };
}

describe('the withdrawal form', () => {
  it('answers the options: networks, the fee, the free ones left today, the rate and the balance', async () => {
    const w = await withdrawer();
    const options = (await w.client.get('/api/merchant/withdrawal-options')).json().data;
    expect(options).toEqual({
      currencies: ['USDT'],
      networks: ['TRC20', 'ERC20'],
      fee: '2.000000',
      free_per_day: 1,
      free_left_today: 1,
      min_amount: '10.000000',
      rate: '7.2',
      local_currency: 'CNY',
      available: '1000.00',
    });
  });

  it('checks the wallet address (a wrong checksum names the field) before spending the Google code', async () => {
    const w = await withdrawer();
    const code = await w.nextCode();
    const refusals = [
      { network: 'TRC20', address: `${TRON.slice(0, -1)}u` },
      { network: 'TRC20', address: TRON.slice(0, -1) },
      { network: 'ERC20', address: `${ETH.slice(0, -1)}8` },
      { network: 'ERC20', address: ETH.slice(0, -1) },
      { network: 'ERC20', address: TRON },
    ];
    for (const refused of refusals) {
      const response = await withdraw(w.client, { amount: '20', code, ...refused });
      expect(response.statusCode, refused.address).toBe(422);
      expect(response.json()).toMatchObject({ code: 'invalid_wallet_address' });
      expect(Object.keys(response.json().errors)).toEqual(['address']);
    }
    const checksum = await withdraw(w.client, { amount: '20', code, address: `${TRON.slice(0, -1)}u` });
    expect(checksum.json().errors.address[0]).toMatch(/checksum/);
    expect(await withdrawalCount(w.merchant.id)).toBe(0);
    expect(await balance(w.client)).toMatchObject({ available: '1000.00', locked: '0.00' });

    // The same code still works: nothing above spent it. A lower-case ERC20 address is accepted.
    const created = await withdraw(w.client, {
      amount: '20',
      code,
      network: 'ERC20',
      address: ETH.toLowerCase(),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ network: 'ERC20', address: ETH.toLowerCase() });
    const mixed = await withdraw(w.client, {
      amount: '20',
      code: await w.nextCode(),
      network: 'ERC20',
      address: ETH,
    });
    expect(mixed.statusCode, mixed.body).toBe(201);
  });

  it('needs two-factor, the payment password and the Google code', async () => {
    const w = await withdrawer();
    const viewerLess = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
    const noTwoFactor = await loginAs(ctx.app, viewerLess.users.ROOT.email, TEST_PASSWORD);
    const refused = await withdraw(noTwoFactor, { amount: '20', code: '123456' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'two_factor_required' });

    const wrongPassword = await withdraw(w.client, {
      amount: '20',
      payment_password: 'nope-nope',
      code: await w.nextCode(),
    });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors.payment_password).toBeDefined();
    const wrongCode = await withdraw(w.client, { amount: '20', code: '000000' });
    expect(wrongCode.statusCode).toBe(422);
    expect(wrongCode.json().errors.code).toBeDefined();
    const noCode = await withdraw(w.client, { amount: '20' });
    expect(noCode.statusCode).toBe(422);
    expect(await withdrawalCount(w.merchant.id)).toBe(0);

    const viewer = await loginAs(ctx.app, w.users.VIEWER.email, TEST_PASSWORD);
    expect((await withdraw(viewer, { amount: '20', code: '123456' })).statusCode).toBe(403);
    expect((await viewer.get('/api/merchant/withdrawal-options')).statusCode).toBe(403);
    expect((await viewer.get('/api/merchant/withdrawals')).statusCode).toBe(200);
  });

  it('holds amount + fee in CNY at the frozen rate; the first of the day is free; too much is 422 with nothing held', async () => {
    const w = await withdrawer();
    const free = await requested(w, { amount: '100' });
    expect(free).toMatchObject({
      status: 'pending_review',
      currency: 'USDT',
      amount: '100.000000',
      fee: '0.000000',
      is_free: true,
      rate: '7.2',
      local_currency: 'CNY',
      local_amount: '720.00',
      local_fee: '0.00',
      local_total: '720.00',
      tx_hash: null,
      reject_reason: null,
    });
    expect(await balance(w.client)).toMatchObject({ available: '280.00', locked: '720.00' });
    expect((await w.client.get('/api/merchant/withdrawal-options')).json().data.free_left_today).toBe(0);

    // 38 USDT is 273.60 CNY, within the 280.00 available, but not with its 2 USDT (14.40 CNY) fee.
    const tooMuch = await withdraw(w.client, { amount: '38', code: await w.nextCode() });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json()).toMatchObject({ code: 'insufficient_funds' });
    expect(tooMuch.json().errors.amount).toBeDefined();
    expect(await balance(w.client)).toMatchObject({ available: '280.00', locked: '720.00' });
    expect(await withdrawalCount(w.merchant.id)).toBe(1);

    const paid = await requested(w, { amount: '36', network: 'ERC20', address: ETH });
    expect(paid).toMatchObject({
      fee: '2.000000',
      is_free: false,
      local_amount: '259.20',
      local_fee: '14.40',
    });
    expect(await balance(w.client)).toMatchObject({ available: '6.40', locked: '993.60' });

    const flows = (await w.client.get('/api/merchant/fund-flows')).json().data;
    expect(flows.map((f: { type: string; amount: string }) => [f.type, f.amount])).toEqual([
      ['withdrawal', '-273.60'],
      ['withdrawal', '-720.00'],
      ['transfer_in', '1000.00'],
    ]);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it("counts the day's free withdrawal in the merchant's time zone: after its midnight there is a free one again", async () => {
    const w = await withdrawer();
    // A zone whose midnight is 3 minutes ahead of the (frozen) clock: "+HH:MM" within -12:00..+14:00.
    const DAY = 1440;
    const minutesNow = Math.floor((Date.now() % 86_400_000) / 60_000);
    let offset = DAY - 3 - minutesNow;
    if (offset > 14 * 60) offset -= DAY;
    const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
    await ctx.database.db.update(merchants).set({ timezone: zone }).where(eq(merchants.id, w.merchant.id));
    const freeLeft = async () =>
      (await w.client.get('/api/merchant/withdrawal-options')).json().data.free_left_today as number;

    expect(await freeLeft()).toBe(1);
    expect(await requested(w, { amount: '10' })).toMatchObject({ is_free: true, fee: '0.000000' });
    expect(await freeLeft()).toBe(0);
    expect(await requested(w, { amount: '10' })).toMatchObject({ is_free: false, fee: '2.000000' });
    // Past the merchant's midnight (the code steps moved the clock 1 minute; 3 more is the next day).
    w.clock.advance(3 * 60_000);
    expect(await freeLeft()).toBe(1);
    expect(await requested(w, { amount: '10' })).toMatchObject({ is_free: true });
  });

  it('refuses an amount below the minimum or with more than 6 decimals, and a currency other than USDT', async () => {
    const w = await withdrawer();
    const code = await w.nextCode();
    const small = await withdraw(w.client, { amount: '9.99', code });
    expect(small.statusCode).toBe(422);
    expect(small.json()).toMatchObject({ code: 'amount_out_of_range' });
    expect((await withdraw(w.client, { amount: '10.1234567', code })).statusCode).toBe(422);
    const huge = await withdraw(w.client, { amount: '999999999999999.999999', code });
    expect(huge.statusCode).toBe(422);
    expect(huge.json()).toMatchObject({ code: 'amount_out_of_range' });
    const cny = await withdraw(w.client, { amount: '20', currency: 'CNY', code });
    expect(cny.statusCode).toBe(422);
    expect(cny.json().errors.currency).toBeDefined();
    expect(await withdrawalCount(w.merchant.id)).toBe(0);
  });
});

describe('requests at once', () => {
  it('never hold more than is available, and exactly one of them is the free one', async () => {
    const { merchant, users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
    await fundMerchant(ctx.database.db, merchant.id, 100_000n);
    // The service behind the route (the step-up is the route's): 12 requests of 20 USDT at once, each
    // 144.00 CNY + 14.40 fee (the free one 144.00): 1,000.00 covers 6 of them.
    const service = createWithdrawalsService({
      limits: { enforce: async () => {}, check: async () => {} },
      db: ctx.database.db,
      ledger: createLedger(),
      settings: ctx.config.withdrawals,
      now: () => new Date(),
    });
    const ref = { id: merchant.id, no: merchant.no, currency: 'CNY' as const, timezone: 'Asia/Shanghai' };
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        service.request(
          ref,
          { amount: '20', network: 'TRC20', address: TRON },
          { userId: users.ROOT.id, client: null },
        ),
      ),
    );
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : []));
    expect(made).toHaveLength(6);
    expect(refused.map((e) => e.code)).toEqual(Array(6).fill('insufficient_funds'));
    expect(made.filter((w) => w.isFree)).toHaveLength(1);
    const held = made.reduce((sum, w) => sum + w.amountLocalMinor + w.feeLocalMinor, 0n);
    expect(held).toBe(14_400n + 5n * 15_840n);
    const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
    expect(await balance(client)).toEqual({
      available: '64.00',
      locked: '936.00',
      total: '1000.00',
      currency: 'CNY',
    });
    expect(await withdrawalCount(merchant.id)).toBe(6);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe("the operator's decisions", () => {
  it('approves once, pays with the transaction hash, and the merchant sees it', async () => {
    const w = await withdrawer();
    const { withdrawal_no: no } = await requested(w, { amount: '100' });

    const approved = await ops('approve', { no, reason: 'address checked' });
    expect(approved.statusCode, approved.body).toBe(201);
    expect(approved.json().data.withdrawal).toMatchObject({ status: 'approved', approved_by: 'alice' });
    const again = await ops('approve', { no, reason: 'address checked' }, 'bob');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'invalid_transition' });
    const decisions = await ctx.database.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.action, 'withdrawal.approved'));
    expect(decisions.filter((d) => (d.detail?.request as { no?: string })?.no === no)).toHaveLength(1);

    expect((await ops('pay', { no, tx_hash: 'abc', reason: 'sent' })).statusCode).toBe(422);
    // An ERC20-shaped hash for a TRC20 withdrawal.
    expect((await ops('pay', { no, tx_hash: `0x${TX_TRON}`, reason: 'sent' })).statusCode).toBe(422);
    const paid = await ops('pay', { no, tx_hash: TX_TRON.toUpperCase(), reason: 'sent from hot wallet' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data.withdrawal).toMatchObject({ status: 'paid', tx_hash: TX_TRON, paid_by: 'alice' });
    expect(await balance(w.client)).toMatchObject({ available: '280.00', locked: '0.00' });
    expect((await ops('reject', { no, reason: 'too late' })).statusCode).toBe(409);

    const list = (await w.client.get('/api/merchant/withdrawals')).json();
    expect(list.data[0]).toMatchObject({ withdrawal_no: no, status: 'paid', tx_hash: TX_TRON });
    expect(list.meta).toMatchObject({
      total: 1,
      sums: { amount: '100.000000', fee: '0.000000', count: 1, local_total: '720.00' },
    });
    const detail = await w.client.get(`/api/merchant/withdrawals/${no}`);
    expect(detail.json().data).toMatchObject({ status: 'paid', tx_hash: TX_TRON });

    // Paid: no fund flow of its own (the merchant saw the money leave at the request).
    const flows = (await w.client.get('/api/merchant/fund-flows')).json().data;
    expect(flows.map((f: { type: string }) => f.type)).toEqual(['withdrawal', 'transfer_in']);
    const events = await ctx.database.db
      .select({ type: securityEvents.type, detail: securityEvents.detail })
      .from(securityEvents)
      .where(eq(securityEvents.merchantId, w.merchant.id));
    const types = events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid']),
    );
    expect(events.find((e) => e.type === 'withdrawal_paid')?.detail).toMatchObject({
      withdrawal_no: no,
      operator: 'alice',
      reason: 'sent from hot wallet',
      tx_hash: TX_TRON,
    });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('of an approve and a reject at once, exactly one applies; a rejection gives amount + fee back', async () => {
    const w = await withdrawer();
    await requested(w, { amount: '10' }); // the day's free one
    const { withdrawal_no: no } = await requested(w, { amount: '100' });
    expect(await balance(w.client)).toMatchObject({ available: '193.60', locked: '806.40' });

    const [approve, reject] = await Promise.all([
      ops('approve', { no, reason: 'looks fine' }, 'alice'),
      ops('reject', { no, reason: 'wallet flagged' }, 'bob'),
    ]);
    expect([approve.statusCode, reject.statusCode].sort()).toEqual([201, 409]);
    const winner = approve.statusCode === 201 ? 'approved' : 'rejected';
    const row = (await w.client.get(`/api/merchant/withdrawals/${no}`)).json().data;
    expect(row.status).toBe(winner);

    if (winner === 'approved') {
      // Bob's rejection lost: it named a withdrawal under review. Rejecting the approved one is his call.
      expect(reject.json().message).toMatch(/from: approved/);
      const late = await ops('reject', { no, from: 'approved', reason: 'wallet flagged' }, 'bob');
      expect(late.statusCode, late.body).toBe(201);
    }
    const rejected = (await w.client.get(`/api/merchant/withdrawals/${no}`)).json().data;
    expect(rejected).toMatchObject({ status: 'rejected', reject_reason: 'wallet flagged', tx_hash: null });
    expect(await balance(w.client)).toMatchObject({ available: '928.00', locked: '72.00' });
    const flows = (await w.client.get('/api/merchant/fund-flows')).json().data;
    expect(flows[0]).toMatchObject({ type: 'withdrawal_rejected', amount: '734.40', note: 'wallet flagged' });
    expect((await ops('approve', { no, reason: 'changed my mind' })).statusCode).toBe(409);
    expect((await ops('pay', { no, tx_hash: TX_TRON.replace('a', 'b'), reason: 'x y z' })).statusCode).toBe(
      409,
    );
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('lists for the operator, refuses an unknown number, and keeps another merchant out (404)', async () => {
    const w = await withdrawer();
    const { withdrawal_no: no } = await requested(w, { amount: '15' });
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/ops/v1/withdrawals?merchant=${w.merchant.no}&status=pending_review`,
      headers: { authorization: `Bearer ${opsToken}` },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({ merchant: w.merchant.no, withdrawal_no: no, status: 'pending_review' }),
    ]);
    expect((await ops('approve', { no: 'W2026112300000000000000', reason: 'nope' })).statusCode).toBe(404);
    expect((await ops('approve', { no: 'nope', reason: 'nope' })).statusCode).toBe(422);
    expect((await ops('reject', { no, reason: '' })).statusCode).toBe(422);

    const other = await withdrawer();
    expect((await other.client.get(`/api/merchant/withdrawals/${no}`)).statusCode).toBe(404);
    expect((await other.client.get(`/api/merchant/withdrawals?withdrawal_no=${no}`)).json().data).toEqual([]);
  });
});

describe('npm run ops -- withdrawal:*', () => {
  /** The command line against the test app in this process. */
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOps(argv, {
      io: { out: (t) => out.push(t), err: (t) => err.push(t) },
      connect: async () => injectTransport(ctx.app, opsToken),
      defaultOperator: 'carol',
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists, approves and pays, printing what changed; a bad argument prints usage and changes nothing', async () => {
    const w = await withdrawer();
    const { withdrawal_no: no } = await requested(w, { amount: '25', network: 'ERC20', address: ETH });

    const listed = await cli('withdrawal:list', '--merchant', w.merchant.no, '--status', 'pending_review');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(no);
    expect(listed.out).toContain(ETH);

    const bad = await cli('withdrawal:pay', '--no', no, '--tx-hash', 'abc', '--reason', 'sent');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--tx-hash: The tx_hash must be 64 hexadecimal digits');
    const pay = () =>
      cli('withdrawal:pay', '--no', no, '--tx-hash', `0x${'b'.repeat(64)}`, '--reason', 'sent');
    const early = await pay();
    expect(early.code).toBe(1);
    expect(early.err).toContain('is pending_review; it cannot become paid');

    const approved = await cli('withdrawal:approve', '--no', no, '--reason', 'checked on chain explorer');
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain(`${no} of ${w.merchant.no}: 25.000000 USDT`);
    expect(approved.out).toContain('approved');
    const paid = await pay();
    expect(paid.code, paid.err).toBe(0);
    expect(paid.out).toContain(`paid, tx 0x${'b'.repeat(64)}`);
    const row = (await w.client.get(`/api/merchant/withdrawals/${no}`)).json().data;
    expect(row).toMatchObject({ status: 'paid', tx_hash: `0x${'b'.repeat(64)}` });
    const [action] = await ctx.database.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.action, 'withdrawal.paid'))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(action).toMatchObject({ operatorName: 'carol', reason: 'sent' });
  });
});
