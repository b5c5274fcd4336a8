import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertReturning } from '../../src/db/rows.ts';
import { collections, payouts } from '../../src/db/schema/index.ts';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// insertReturning writes the hottest inserts as constant SQL text instead of drizzle's builder: the row
// it answers must read exactly as drizzle reads the stored row (bigints, dates, nulls), and a conflict
// named in the tail answers undefined and writes nothing.

let ctx: TestContext;
let m: GatewayMerchant;

beforeAll(async () => {
  ctx = await createTestApp();
  m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
});

afterAll(async () => {
  await ctx?.close();
});

const at = new Date('2026-11-25T06:00:00.123Z');

it('answers a collection as drizzle reads it back, and undefined on the named conflict', async () => {
  const { db } = ctx.database;
  const row = {
    merchantId: m.merchant.id,
    channelId: m.channel!.id,
    channelCode: 'sandbox',
    tradeNo: 'CROWS0001',
    outTradeNo: 'ROWS-1',
    amountMinor: 9_007_199_254_740_993n, // past 2^53: must stay exact
    feeMinor: 150n,
    currency: m.merchant.currency,
    notifyUrl: null,
    payerName: undefined,
    expiresAt: new Date(at.getTime() + 30 * 60_000),
    createdAt: at,
  };
  const made = await insertReturning(
    db,
    collections,
    row,
    'on conflict (merchant_id, out_trade_no) do nothing',
  );
  const [stored] = await db.select().from(collections).where(eq(collections.id, made!.id));
  expect(made).toEqual(stored);
  expect(made).toMatchObject({
    amountMinor: 9_007_199_254_740_993n,
    createdAt: at,
    notifyUrl: null,
    payerName: null,
  });

  const again = await insertReturning(
    db,
    collections,
    { ...row, tradeNo: 'CROWS0002' },
    'on conflict (merchant_id, out_trade_no) do nothing',
  );
  expect(again).toBeUndefined();
  expect(await db.select().from(collections).where(eq(collections.tradeNo, 'CROWS0002'))).toEqual([]);
});

it('answers a payout (another table, other columns) as drizzle reads it back', async () => {
  const { db } = ctx.database;
  const made = await insertReturning(db, payouts, {
    merchantId: m.merchant.id,
    channelId: m.channel!.id,
    channelCode: 'sandbox',
    tradeNo: 'PROWS0001',
    outTradeNo: 'ROWS-P1',
    source: 'gateway',
    amountMinor: 1_000n,
    feeMinor: 60n,
    currency: m.merchant.currency,
    accountType: 'individual',
    bankCode: 'ICBC',
    payeeName: '张三',
    accountNo: '6222020200112233445',
    createdAt: at,
  });
  const [stored] = await db.select().from(payouts).where(eq(payouts.id, made!.id));
  expect(made).toEqual(stored);
  expect(made).toMatchObject({ payeeName: '张三', status: stored.status, failureReason: null });
});
