import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, collections, settlements } from '../../src/db/schema/index.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Issue 33 item 1: until test mode exists, the sandbox channel (which marks any order paid on request) is
// for the demo and development only. A production server started without --demo has no /sandbox routes,
// opens no sandbox channel, and never settles a sandbox order into a merchant's balance.

type Mode = { label: string; env: NodeJS.ProcessEnv; sandbox: boolean };
const MODES: Mode[] = [
  { label: 'production without --demo', env: { NODE_ENV: 'production' }, sandbox: false },
  { label: 'production with --demo', env: { NODE_ENV: 'production', PAYDESK_DEMO: 'true' }, sandbox: true },
];

describe.each(MODES)('the sandbox in $label', ({ env, sandbox }) => {
  let ctx: TestContext;
  let token: string;
  let manual: GatewayMerchant;
  let auto: GatewayMerchant;

  beforeAll(async () => {
    // Jobs are run by hand here, as in every test app.
    ctx = await createTestApp({ ...env, JOBS: 'off' });
    token = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
    // Test keys: the sandbox serves test mode only (DESIGN 12).
    manual = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      channel: { settlementCycle: 'T0' },
      mode: 'test',
    });
    auto = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      channel: { sandboxMode: 'auto', sandboxSuccessPpm: 1_000_000, sandboxDelaySeconds: 0 },
      mode: 'test',
    });
  });
  afterAll(() => ctx.close());

  const ops = (url: string, body: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      payload: body,
    });

  /**
   * A to_be_paid order on the merchant's sandbox channel: through the gateway where the sandbox runs;
   * else written as an earlier demo run on the same database left it (the gateway refuses new ones).
   */
  async function order(m: GatewayMerchant, outTradeNo: string): Promise<string> {
    if (!sandbox) {
      const tradeNo = `C${Date.now()}${String(++legacySequence).padStart(6, '0')}`;
      await ctx.database.db.insert(collections).values({
        merchantId: m.merchant.id,
        channelId: m.channel!.id,
        channelCode: m.channel!.code,
        tradeNo,
        outTradeNo,
        amountMinor: 10_000n,
        feeMinor: 150n,
        currency: m.merchant.currency,
        expiresAt: new Date(Date.now() + 30 * 60_000),
      });
      return tradeNo;
    }
    const created = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: outTradeNo, amount: '100.00' },
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { data: { trade_no: string } }).data.trade_no;
  }
  let legacySequence = 0;

  const statusOf = async (tradeNo: string) =>
    (
      await ctx.database.db
        .select({ status: collections.status })
        .from(collections)
        .where(eq(collections.tradeNo, tradeNo))
    )[0]?.status;

  it(
    sandbox
      ? 'serves the hosted pay page, whose Pay button marks the order paid'
      : 'answers 404 on every /sandbox route, and the order stays unpaid',
    async () => {
      const tradeNo = await order(manual, 'PAGE-1');
      const page = await ctx.app.inject({ method: 'GET', url: `/sandbox/pay/${tradeNo}` });
      const paid = await payOnSandboxPage(ctx.app, `/sandbox/pay/${tradeNo}`);
      if (sandbox) {
        expect(page.statusCode).toBe(200);
        expect(paid.statusCode).toBe(303);
        expect(await statusOf(tradeNo)).toBe('paid');
        return;
      }
      for (const answer of [page, paid, await ctx.app.inject({ method: 'GET', url: '/sandbox/anything' })]) {
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toMatchObject({ message: 'Not found.', code: 'not_found' });
      }
      expect(await statusOf(tradeNo)).toBe('to_be_paid');
    },
  );

  it(
    sandbox
      ? 'lets an operator open a sandbox channel and finish a sandbox order'
      : 'refuses to open a sandbox channel or finish a sandbox order (409 sandbox_disabled)',
    async () => {
      const opened = await ops('/ops/v1/channels/open', {
        merchant: manual.merchant.no,
        mode: 'test',
        code: 'sandbox-new',
        kind: 'collection',
        fee_rate: '1.5',
        min_amount: '1.00',
        max_amount: '500.00',
        reason: 'onboarding',
      });
      const tradeNo = await order(manual, 'OPS-1');
      const completed = await ops('/ops/v1/sandbox/complete', {
        trade_no: tradeNo,
        result: 'paid',
        reason: 'test',
      });
      if (sandbox) {
        expect(opened.statusCode, opened.body).toBe(201);
        expect(completed.statusCode, completed.body).toBe(201);
        expect(await statusOf(tradeNo)).toBe('paid');
        return;
      }
      for (const answer of [opened, completed]) {
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json()).toMatchObject({
          code: 'sandbox_disabled',
          message: expect.stringContaining('--demo'),
        });
      }
      const channels = await ctx.app.inject({
        method: 'GET',
        url: `/ops/v1/channels?merchant=${manual.merchant.no}&mode=test`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(channels.json().data.map((c: { code: string }) => c.code)).toEqual(['sandbox']);
      expect(await statusOf(tradeNo)).toBe('to_be_paid');
    },
  );

  it(
    sandbox
      ? 'places demo traffic through the operator API'
      : 'has no demo traffic routes (404), which would sign with a merchant secret and pay the demo payees',
    async () => {
      const placed = await ops('/ops/v1/demo/collections', { merchant: manual.merchant.no, reason: 'demo' });
      if (sandbox) {
        expect(placed.statusCode, placed.body).toBe(200);
        return;
      }
      expect(placed.statusCode, placed.body).toBe(404);
      expect(placed.json()).toMatchObject({ code: 'not_found' });
    },
  );

  it(
    sandbox
      ? 'finishes auto-mode orders by itself'
      : 'leaves auto-mode orders alone (the sandbox job does nothing)',
    async () => {
      const tradeNo = await order(auto, 'AUTO-1');
      await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });
      expect(await statusOf(tradeNo)).toBe(sandbox ? 'paid' : 'to_be_paid');
    },
  );

  it(
    sandbox
      ? 'settles paid sandbox orders into the balance'
      : 'never settles a paid sandbox order into a balance',
    async () => {
      // Paid before the sandbox was turned off (an earlier demo run on the same database, say).
      const tradeNo = await order(manual, 'SETTLE-1');
      await ctx.app.services.collections.finish(tradeNo, 'paid');
      const run = await ops('/ops/v1/settlements/run', { reason: 'end of day' });
      expect(run.statusCode, run.body).toBe(201);
      const batches = await ctx.database.db
        .select()
        .from(settlements)
        .where(eq(settlements.merchantId, manual.merchant.id));
      const available = (await balanceRow(ctx.database.db, manual.merchant.id))?.availableMinor ?? 0n;
      if (sandbox) {
        expect(batches.map((b) => b.status)).toEqual(['settled']);
        expect(available).toBeGreaterThan(0n);
      } else {
        expect(batches).toEqual([]);
        expect(available).toBe(0n);
        expect(await statusOf(tradeNo)).toBe('paid');
      }
    },
  );

  it(
    sandbox
      ? 'takes new collections and payouts on sandbox channels'
      : 'refuses new collections and payouts on a sandbox channel (422 channel_unavailable), holding nothing',
    async () => {
      const payer = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
        channel: { code: 'sandbox-payout', kind: 'payout', settlementCycle: null },
        roles: ['ROOT'],
      });
      await ctx.database.db.insert(channels).values({
        merchantId: payer.merchant.id,
        code: 'sandbox',
        kind: 'collection',
        country: 'CN',
        currency: payer.merchant.currency,
        feeRatePpm: 15_000,
        fixedFeeMinor: 0n,
        minAmountMinor: 100n,
        maxAmountMinor: 5_000_000n,
        settlementCycle: 'T1',
        openedBy: 'test',
      });
      await fundMerchant(ctx.database.db, payer.merchant.id, 100_000n);
      const collection = await gatewayCall(ctx.app, payer, 'POST', '/gateway/v1/collections', {
        body: { out_trade_no: 'NEW-1', amount: '100.00' },
      });
      const payout = await gatewayCall(ctx.app, payer, 'POST', '/gateway/v1/payouts', {
        body: {
          out_trade_no: 'NEWP-1',
          amount: '100.00',
          account_type: 'individual',
          bank_code: 'ICBC',
          bank_name: '中国工商银行',
          payee_name: '张三',
          account_no: '6222020200112233445',
        },
      });
      const balance = await balanceRow(ctx.database.db, payer.merchant.id);
      const root = await loginAs(ctx.app, payer.users.ROOT.email, TEST_PASSWORD);
      const offered = (await root.get('/api/merchant/payout-channels')).json().data.channels;
      expect(offered.map((c: { code: string }) => c.code)).toEqual(sandbox ? ['sandbox-payout'] : []);
      if (sandbox) {
        expect(collection.statusCode, collection.body).toBe(201);
        expect(payout.statusCode, payout.body).toBe(201);
        expect(balance?.lockedMinor).toBeGreaterThan(0n);
        return;
      }
      for (const answer of [collection, payout]) {
        expect(answer.statusCode, answer.body).toBe(422);
        expect(answer.json()).toMatchObject({ code: 'channel_unavailable' });
      }
      expect(balance).toMatchObject({ availableMinor: 100_000n, lockedMinor: 0n });
      const made = await ctx.database.db
        .select()
        .from(collections)
        .where(eq(collections.merchantId, payer.merchant.id));
      expect(made).toEqual([]);
    },
  );
});
