import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { sealSecret } from '../../src/modules/security/authenticator.ts';
import { generateTotpSecret } from '../../src/modules/security/totp.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
  testModeOf,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { balanceRow, booksOutOfBalance } from '../helpers/ledger.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, totpCode } from '../helpers/two-factor.ts';

// Payout approval (DESIGN 16): a payout at or above the threshold waits in pending_approval with its
// amount + fee held and unsent; another user with payout:approve approves it (both factors: it goes on to
// its channel) or rejects it (the hold released, payout.failed); its maker cannot approve it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 300_000);
afterAll(() => ctx?.close());
afterEach(() => releaseClock());

const PAYMENT_PASSWORD = 'pay-approve-77';

type Team = GatewayMerchant & {
  as: Record<'ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER', TestClient>;
  code: (role: 'ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER') => Promise<string>;
  nextStep: () => void;
};

/**
 * A merchant with a sandbox payout channel, 1,000.00 in, and one signed-in user per role, each with
 * two-factor on and a payment password (written straight to their rows: the Security page has its own tests).
 */
async function team(): Promise<Team> {
  const clock = freezeClock();
  const { db } = ctx.database;
  const m = await createGatewayMerchant(db, ctx.config.appKey, {
    roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
  });
  await openPayoutChannel(db, m.merchant.id);
  await fundMerchant(db, m.merchant.id, 100_000n);
  const paymentPasswordHash = await hashPassword(PAYMENT_PASSWORD);
  const secrets: Record<string, string> = {};
  const as: Partial<Team['as']> = {};
  for (const role of ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'] as const) {
    secrets[role] = generateTotpSecret();
    // Signed in first: with two-factor on, the login would wait for the challenge.
    as[role] = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
    await db
      .update(users)
      .set({
        twoFactorSecret: sealSecret(ctx.config.appKey, secrets[role]),
        twoFactorConfirmedAt: new Date(),
        paymentPasswordHash,
      })
      .where(eq(users.id, m.users[role].id));
  }
  return {
    ...m,
    as: as as Team['as'],
    code: (role) => totpCode(secrets[role]),
    nextStep: clock.nextStep,
  };
}

const stepUp = async (t: Team, role: 'ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER') => ({
  payment_password: PAYMENT_PASSWORD,
  code: await t.code(role),
});

async function setThresholds(t: Team, consoleThreshold: string, gatewayThreshold = '0', mode?: 'test') {
  t.nextStep();
  const answer = await t.as.ROOT.put(
    '/api/merchant/payout-approval',
    {
      payout_approval_threshold: consoleThreshold,
      gateway_payout_approval_threshold: gatewayThreshold,
      ...(await stepUp(t, 'ROOT')),
    },
    mode ? { 'x-mode': mode } : {},
  );
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data;
}

/** A console payout by `role` (OPERATOR unless told), confirmed as a near-duplicate so amounts may repeat. */
async function consolePayout(t: Team, amount: string, role: 'ROOT' | 'OPERATOR' = 'OPERATOR') {
  t.nextStep();
  const answer = await t.as[role].post('/api/merchant/payouts', {
    channel: 'sandbox-pay',
    amount,
    ...CN_PAYEE,
    confirm_duplicate: true,
    ...(await stepUp(t, role)),
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data as { trade_no: string; status: string; amount: string; fee: string };
}

async function approve(t: Team, tradeNo: string, role: 'ROOT' | 'FINANCE' | 'OPERATOR' = 'FINANCE') {
  return t.as[role].post(`/api/merchant/payouts/${tradeNo}/approve`, await stepUp(t, role));
}

const balance = async (t: Team) => {
  const row = await balanceRow(ctx.database.db, t.merchant.id);
  return { available: row?.availableMinor, locked: row?.lockedMinor };
};

const jobsOf = async (tradeNo: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pgboss.job where name = 'sandbox.complete' and data->>'trade_no' = ${tradeNo}`,
    )
  )[0].n;

const securityTypes = async (t: Team) =>
  (
    await queryRows<{ type: string }>(
      ctx.database.db,
      sql`select type from security_events where merchant_id = ${t.liveMerchant.id} order by id`,
    )
  ).map((r) => r.type);

const notified = async (t: Team) =>
  (
    await queryRows<{ type: string; payout_no: string; actor: string }>(
      ctx.database.db,
      sql`select type, params->>'payout_no' as payout_no, params->>'actor' as actor from notifications
           where user_id = ${t.users.ROOT.id} and type = 'payout_pending_approval' order by id`,
    )
  ).map((r) => [r.type, r.payout_no, r.actor]);

async function booksBalance() {
  expect(await booksOutOfBalance(ctx.database.db)).toEqual({
    unbalancedEntries: [],
    unbalancedCurrencies: [],
    driftedAccounts: [],
  });
  const report = await verifyLedger(ctx.database.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

describe('the thresholds (Settings)', () => {
  it('are 0 (off) until ROOT sets them with both factors, per mode; bad input is 422 naming the field', async () => {
    const t = await team();
    const initial = (await t.as.ROOT.get('/api/merchant/payout-approval')).json().data;
    expect(initial).toMatchObject({
      mode: 'live',
      currency: 'CNY',
      payout_approval_threshold: '0.00',
      gateway_payout_approval_threshold: '0.00',
    });

    const bad: [Record<string, unknown>, string][] = [
      [
        { payout_approval_threshold: '-1', gateway_payout_approval_threshold: '0' },
        'payout_approval_threshold',
      ],
      [
        { payout_approval_threshold: '10', gateway_payout_approval_threshold: 'ten' },
        'gateway_payout_approval_threshold',
      ],
      [
        { payout_approval_threshold: '1.234', gateway_payout_approval_threshold: '0' },
        'payout_approval_threshold',
      ],
      [{ payout_approval_threshold: 5, gateway_payout_approval_threshold: '0' }, 'payout_approval_threshold'],
      [{ gateway_payout_approval_threshold: '0' }, 'payout_approval_threshold'],
    ];
    for (const [body, field] of bad) {
      t.nextStep();
      const answer = await t.as.ROOT.put('/api/merchant/payout-approval', {
        ...body,
        ...(await stepUp(t, 'ROOT')),
      });
      expect(answer.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(answer.json().errors), JSON.stringify(body)).toContain(field);
    }
    // Without both factors nothing is saved either.
    const noCode = await t.as.ROOT.put('/api/merchant/payout-approval', {
      payout_approval_threshold: '100',
      gateway_payout_approval_threshold: '0',
      payment_password: PAYMENT_PASSWORD,
    });
    expect(noCode.statusCode).toBe(422);
    expect((await t.as.ROOT.get('/api/merchant/payout-approval')).json().data).toMatchObject(initial);
    expect(await securityTypes(t)).not.toContain('payout_approval_changed');

    // FINANCE approves payouts but does not set the thresholds.
    expect((await t.as.FINANCE.get('/api/merchant/payout-approval')).statusCode).toBe(403);

    const saved = await setThresholds(t, '100', '2500.5');
    expect(saved).toMatchObject({
      payout_approval_threshold: '100.00',
      gateway_payout_approval_threshold: '2500.50',
    });
    expect(saved.updated_at).not.toBeNull();
    expect(await securityTypes(t)).toContain('payout_approval_changed');
    // Test mode has its own settings, still off.
    const test = (await t.as.ROOT.get('/api/merchant/payout-approval', { 'x-mode': 'test' })).json().data;
    expect(test).toMatchObject({ mode: 'test', payout_approval_threshold: '0.00' });
  });
});

describe('a console payout at or above the threshold', () => {
  it('waits held and unsent from the threshold on (just below goes at once); approval sends it and it completes', async () => {
    const t = await team();
    await setThresholds(t, '100');

    const below = await consolePayout(t, '99.99');
    expect(below.status).toBe('pending');
    expect(await jobsOf(below.trade_no)).toBe(1);

    const at = await consolePayout(t, '100.00');
    expect(at).toMatchObject({ status: 'pending_approval', amount: '100.00', fee: '1.50' });
    expect(await jobsOf(at.trade_no)).toBe(0);
    // The ROOT users are told (the bell and an email), in the payout's transaction.
    expect(await notified(t)).toEqual([['payout_pending_approval', at.trade_no, 'OPERATOR user']]);
    // Both held exactly as any payout: 99.99 + 1.50 and 100.00 + 1.50.
    expect(await balance(t)).toEqual({ available: 100_000n - 10_149n - 10_150n, locked: 10_149n + 10_150n });
    await booksBalance();

    // Listed under its status, and counted on the Dashboard.
    const listed = (await t.as.ROOT.get('/api/merchant/payouts?status=pending_approval')).json();
    expect(listed.data.map((p: { trade_no: string }) => p.trade_no)).toEqual([at.trade_no]);
    expect(listed.data[0].created_by_user_id).toBe(t.users.OPERATOR.id);
    const dashboard = (await t.as.ROOT.get('/api/merchant/dashboard')).json().data;
    expect(dashboard.payout_approval).toEqual({ count: 1, amount: '100.00', currency: 'CNY' });
    // The gateway shows it too.
    const seen = await gatewayCall(ctx.app, t, 'GET', `/gateway/v1/payouts/${at.trade_no}`);
    expect(seen.json().data.status).toBe('pending_approval');

    // OPERATOR (the maker, and without payout:approve) and VIEWER cannot act on it.
    expect((await approve(t, at.trade_no, 'OPERATOR')).statusCode).toBe(403);
    expect(
      (await t.as.VIEWER.post(`/api/merchant/payouts/${at.trade_no}/reject`, { reason: 'x' })).statusCode,
    ).toBe(403);

    t.nextStep();
    const approved = await approve(t, at.trade_no, 'FINANCE');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({
      status: 'pending',
      created_by: { id: t.users.OPERATOR.id, name: 'OPERATOR user' },
      reviewed_by: { id: t.users.FINANCE.id, name: 'FINANCE user' },
    });
    expect(approved.json().data.timeline.map((s: { step: string }) => s.step)).toContain('approved');
    expect(await jobsOf(at.trade_no)).toBe(1);
    expect(await securityTypes(t)).toContain('payout_approved');
    // Again: it no longer waits.
    t.nextStep();
    const again = await approve(t, at.trade_no, 'ROOT');
    expect([again.statusCode, again.json().code]).toEqual([409, 'invalid_transition']);

    // Through the sandbox as any payout: processing, then success, the hold captured.
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: at.trade_no });
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: at.trade_no });
    const done = (await t.as.ROOT.get(`/api/merchant/payouts/${at.trade_no}`)).json().data;
    expect(done.status).toBe('success');
    expect(await balance(t)).toEqual({ available: 100_000n - 10_149n - 10_150n, locked: 10_149n });
    expect((await t.as.ROOT.get('/api/merchant/dashboard')).json().data.payout_approval).toEqual({
      count: 0,
      amount: '0.00',
      currency: 'CNY',
    });
    await booksBalance();
  });

  it('is never approved by its maker (403 maker_cannot_approve, no code spent), who may reject it', async () => {
    const t = await team();
    await setThresholds(t, '50');
    const own = await consolePayout(t, '60.00', 'ROOT');
    expect(own.status).toBe('pending_approval');
    // Its maker, the merchant's only ROOT, is not told of its own payout.
    expect(await notified(t)).toEqual([]);
    t.nextStep();
    const refused = await approve(t, own.trade_no, 'ROOT');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'maker_cannot_approve']);
    expect((await t.as.ROOT.get(`/api/merchant/payouts/${own.trade_no}`)).json().data.status).toBe(
      'pending_approval',
    );
    // The maker withdraws it: rejected with the reason, the hold back in available.
    const rejected = await t.as.ROOT.post(`/api/merchant/payouts/${own.trade_no}/reject`, {
      reason: 'Wrong account',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      failure_reason: 'Wrong account',
      reviewed_by: { id: t.users.ROOT.id },
    });
    expect(await balance(t)).toEqual({ available: 100_000n, locked: 0n });
    const flows = (await t.as.ROOT.get('/api/merchant/fund-flows')).json().data;
    expect(flows.map((f: { type: string; amount: string }) => [f.type, f.amount]).slice(0, 2)).toEqual([
      ['payout_refund', '61.10'],
      ['payout_deduction', '-61.10'],
    ]);
    expect(await jobsOf(own.trade_no)).toBe(0);
    expect(await securityTypes(t)).toContain('payout_rejected');
    await booksBalance();
    // ledger:verify ties a payout's hold to its status: a rejected payout read as waiting is caught.
    const { db } = ctx.database;
    await db.execute(sql`update payouts set status = 'pending_approval' where trade_no = ${own.trade_no}`);
    const broken = await verifyLedger(db, t.merchant.no);
    expect(broken.problems.map((p) => [p.invariant, p.message])).toEqual([
      ['payout_hold_state', `payout ${own.trade_no} is pending_approval but its hold is released`],
    ]);
    await db.execute(sql`update payouts set status = 'rejected' where trade_no = ${own.trade_no}`);
  });

  it('lets exactly one of two racing approvers approve it; the other gets 409', async () => {
    const t = await team();
    await setThresholds(t, '10');
    const payout = await consolePayout(t, '30.00');
    t.nextStep();
    const [a, b] = await Promise.all([
      approve(t, payout.trade_no, 'ROOT'),
      approve(t, payout.trade_no, 'FINANCE'),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await jobsOf(payout.trade_no)).toBe(1);
    // Approve and reject racing: one of them, never both.
    const other = await consolePayout(t, '40.00');
    t.nextStep();
    const [approval, rejection] = await Promise.all([
      approve(t, other.trade_no, 'FINANCE'),
      t.as.ROOT.post(`/api/merchant/payouts/${other.trade_no}/reject`, { reason: 'Not this one' }),
    ]);
    expect([approval.statusCode, rejection.statusCode].sort()).toEqual([200, 409]);
    const final = (await t.as.ROOT.get(`/api/merchant/payouts/${other.trade_no}`)).json().data.status;
    expect(final).toBe(approval.statusCode === 200 ? 'pending' : 'rejected');
    expect(await jobsOf(other.trade_no)).toBe(approval.statusCode === 200 ? 1 : 0);
    await booksBalance();
  });

  it('keeps the books under many payouts waiting, approved and rejected at once', async () => {
    const t = await team();
    await setThresholds(t, '10');
    const made = [];
    for (let i = 0; i < 8; i += 1) made.push(await consolePayout(t, `${10 + i}.00`));
    t.nextStep();
    // Each approver's code is single-use: FINANCE approves one, ROOT rejects the rest concurrently.
    const answers = await Promise.all([
      approve(t, made[0].trade_no, 'FINANCE'),
      ...made
        .slice(1)
        .map((p) =>
          t.as.ROOT.post(`/api/merchant/payouts/${p.trade_no}/reject`, { reason: 'Batch rejected' }),
        ),
      ...made
        .slice(1, 4)
        .map((p) => t.as.FINANCE.post(`/api/merchant/payouts/${p.trade_no}/reject`, { reason: 'Twice' })),
    ]);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(8);
    // Only the approved one stays held: 10.00 + 0.60.
    expect(await balance(t)).toEqual({ available: 100_000n - 1_060n, locked: 1_060n });
    await booksBalance();
  });
});

describe('another merchant, another mode, the gateway', () => {
  it('answers 404 for another merchant and for the other mode', async () => {
    const t = await team();
    await setThresholds(t, '10');
    const payout = await consolePayout(t, '20.00');
    const stranger = await team();
    stranger.nextStep();
    expect((await approve(stranger, payout.trade_no, 'FINANCE')).statusCode).toBe(404);
    expect(
      (await stranger.as.ROOT.post(`/api/merchant/payouts/${payout.trade_no}/reject`, { reason: 'x' }))
        .statusCode,
    ).toBe(404);
    t.nextStep();
    const testMode = await t.as.FINANCE.post(
      `/api/merchant/payouts/${payout.trade_no}/approve`,
      await stepUp(t, 'FINANCE'),
      { 'x-mode': 'test' },
    );
    expect(testMode.statusCode).toBe(404);
    expect(
      (
        await t.as.ROOT.post(
          `/api/merchant/payouts/${payout.trade_no}/reject`,
          { reason: 'x' },
          { 'x-mode': 'test' },
        )
      ).statusCode,
    ).toBe(404);
    expect((await t.as.ROOT.post('/api/merchant/payouts/P123/reject', { reason: 'x' })).statusCode).toBe(404);
    // A reason is required.
    const noReason = await t.as.ROOT.post(`/api/merchant/payouts/${payout.trade_no}/reject`, {
      reason: '  ',
    });
    expect([noReason.statusCode, Object.keys(noReason.json().errors ?? {})]).toEqual([422, ['reason']]);
    expect((await t.as.ROOT.get(`/api/merchant/payouts/${payout.trade_no}`)).json().data.status).toBe(
      'pending_approval',
    );
  });

  it('follows its own setting for gateway payouts; a rejected one sends payout.failed', async () => {
    const t = await team();
    // The console's threshold does not touch gateway payouts.
    await setThresholds(t, '10', '0');
    const create = (out: string, amount: string) =>
      gatewayCall(ctx.app, t, 'POST', '/gateway/v1/payouts', {
        body: { out_trade_no: out, amount, ...CN_PAYEE, notify_url: 'https://merchant.example/hooks' },
      });
    // Twice: the second call may take the one-statement way on the remembered channel.
    for (const out of ['G-1', 'G-2']) {
      const answer = await create(out, '50.00');
      expect([answer.statusCode, answer.json().data.status]).toEqual([201, 'pending']);
    }
    await setThresholds(t, '0', '50');
    const below = await create('G-3', '49.99');
    expect(below.json().data.status).toBe('pending');
    const waiting = await create('G-4', '50.00');
    expect([waiting.statusCode, waiting.json().data.status]).toEqual([201, 'pending_approval']);
    const again = await create('G-5', '75.00');
    expect(again.json().data.status).toBe('pending_approval');
    expect(await jobsOf(waiting.json().data.trade_no)).toBe(0);
    // No maker: any approver may approve.
    t.nextStep();
    expect((await approve(t, waiting.json().data.trade_no, 'ROOT')).statusCode).toBe(200);
    const rejected = await t.as.FINANCE.post(`/api/merchant/payouts/${again.json().data.trade_no}/reject`, {
      reason: 'Unknown payee',
    });
    expect(rejected.statusCode).toBe(200);
    const seen = (await gatewayCall(ctx.app, t, 'GET', '/gateway/v1/payouts?out_trade_no=G-5')).json().data;
    expect(seen).toMatchObject({ status: 'rejected', failure_reason: 'Unknown payee' });
    const types = await queryRows<{ type: string }>(
      ctx.database.db,
      sql`select e.type from callback_events e join payouts p on p.id = e.ref_id and e.ref_type = 'payout'
           where p.trade_no = ${again.json().data.trade_no}`,
    );
    expect(types.map((r) => r.type)).toEqual(['payout.failed']);
    await booksBalance();
  });

  it('keeps test mode apart: its own thresholds for its own payouts', async () => {
    const t = await team();
    const test = await testModeOf(ctx.database.db, ctx.config.appKey, t);
    await openPayoutChannel(ctx.database.db, test.merchant.id);
    await fundMerchant(ctx.database.db, test.merchant.id, 100_000n);
    await setThresholds(t, '0', '20', 'test');
    const live = await gatewayCall(ctx.app, t, 'POST', '/gateway/v1/payouts', {
      body: { out_trade_no: 'L-1', amount: '30.00', ...CN_PAYEE },
    });
    expect(live.json().data.status).toBe('pending');
    const inTest = await gatewayCall(ctx.app, test, 'POST', '/gateway/v1/payouts', {
      body: { out_trade_no: 'T-1', amount: '30.00', ...CN_PAYEE },
    });
    expect(inTest.json().data).toMatchObject({ status: 'pending_approval', livemode: false });
  });
});
