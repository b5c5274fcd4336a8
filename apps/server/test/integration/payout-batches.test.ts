import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { payouts } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { opsRunner } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Payouts the platform's staff pay through their own bank (DESIGN 13, the manual provider): they wait in
// the queue, the batch file lists them in the channel's columns, the bank's result file ends them (the
// same file twice changes nothing), one payout is marked paid or failed by hand, and a failure releases
// the hold. Driven from the command line, as an operator does.

let ctx: TestContext;
let db: Db;
let token: string;
let m: GatewayMerchant;
const tradeNos: string[] = [];

const ops = opsRunner(
  () => ctx.app,
  () => token,
  'Paula Payouts',
);

const channel = () => ['--merchant', m.merchant.no, '--channel', 'cn-manual'];
const file = (name: string) => path.join(ctx.config.dataDir, name);
const statusOf = async (tradeNo: string) =>
  (await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNo)))[0].status;
const statuses = () => Promise.all(tradeNos.map(statusOf));

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  m = await createGatewayMerchant(db, ctx.config.appKey, { channel: false });
  const opened = await ops(
    'channel:open',
    ...channel().filter((a) => a !== '--channel' && a !== 'cn-manual'),
    '--code',
    'cn-manual',
    '--kind',
    'payout',
    '--provider',
    'manual',
    '--settings',
    JSON.stringify({
      columns: [
        { header: '付款编号', field: 'trade_no' },
        { header: '金额', field: 'amount' },
        { header: '收款人', field: 'account_name' },
        { header: '账号', field: 'account_no' },
        { header: '开户行', field: 'bank_name' },
      ],
      result: {
        trade_no: '付款编号',
        status: '状态',
        bank_reference: '银行流水号',
        reason: '备注',
        paid_values: ['成功'],
        failed_values: ['失败'],
      },
    }),
    '--fee-rate',
    '0.5',
    '--min-amount',
    '1.00',
    '--max-amount',
    '50000.00',
    '--reason',
    'payouts by our bank',
  );
  expect(opened.code, opened.err).toBe(0);
  await fundMerchant(db, m.merchant.id, 100_000n);
  for (const [i, amount] of ['100.00', '200.00', '300.00'].entries()) {
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { out_trade_no: `batch-${i}`, amount, ...CN_PAYEE },
    });
    expect(made.statusCode, made.body).toBe(201);
    tradeNos.push(made.json().data.trade_no);
  }
});
afterAll(() => ctx.close());

describe('manual payouts', () => {
  it('wait in the queue: nothing sends them by itself', async () => {
    expect(await statuses()).toEqual(['pending', 'pending', 'pending']);
  });

  it("the batch file lists them in the channel's columns and moves them to processing", async () => {
    const exported = await ops(
      'payout:batch-export',
      ...channel(),
      '--out',
      file('batch.csv'),
      '--reason',
      'morning batch',
    );
    expect(exported.code, exported.err).toBe(0);
    const batchNo = /Batch (B\d{17}): 3 payout\(s\), 600.00 in all/.exec(exported.out)?.[1];
    expect(batchNo).toBeDefined();
    const rows = parse(readFileSync(file('batch.csv')), { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(
      tradeNos.map((tradeNo, i) => ({
        付款编号: tradeNo,
        金额: ['100.00', '200.00', '300.00'][i],
        收款人: CN_PAYEE.payee_name,
        账号: CN_PAYEE.account_no,
        开户行: CN_PAYEE.bank_name,
      })),
    );
    expect(await statuses()).toEqual(['processing', 'processing', 'processing']);
    // Exported once: the next batch has none of them; the same batch's file can be had again.
    const next = await ops(
      'payout:batch-export',
      ...channel(),
      '--out',
      file('next.csv'),
      '--reason',
      'afternoon',
    );
    expect(next.out).toMatch(/0 payout\(s\)/);
    const again = await ops(
      'payout:batch-export',
      ...channel(),
      '--batch',
      batchNo!,
      '--out',
      file('again.csv'),
      '--reason',
      'lost the file',
    );
    expect(again.code, again.err).toBe(0);
    expect(readFileSync(file('again.csv'), 'utf8')).toBe(readFileSync(file('batch.csv'), 'utf8'));
  });

  it("a result file the bank's words do not match is refused with its line and changes nothing", async () => {
    writeFileSync(
      file('bad.csv'),
      `付款编号,状态,银行流水号,备注\n${tradeNos[0]},成功,FT1,\n${tradeNos[1]},PENDING,,\n`,
    );
    const refused = await ops(
      'payout:batch-import',
      ...channel(),
      '--file',
      file('bad.csv'),
      '--reason',
      'result',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('Line 3: the status "PENDING" is none of 成功, 失败');
    expect(await statuses()).toEqual(['processing', 'processing', 'processing']);
  });

  it("the bank's result file ends each payout once; a failure gives the money back", async () => {
    const before = (await balanceRow(db, m.merchant.id))!;
    writeFileSync(
      file('result.csv'),
      `付款编号,状态,银行流水号,备注\n${tradeNos[0]},成功,FT1,\n${tradeNos[1]},失败,,账户已销户\n`,
    );
    const imported = await ops(
      'payout:batch-import',
      ...channel(),
      '--file',
      file('result.csv'),
      '--reason',
      'bank result',
    );
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain('2 line(s): 1 paid, 1 failed, 0 ended before');
    expect(await statuses()).toEqual(['success', 'failed', 'processing']);
    const [failed] = await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNos[1]));
    expect(failed.failureReason).toBe('账户已销户');
    const after = (await balanceRow(db, m.merchant.id))!;
    // 200.00 + its fee (0.5% = 1.00) back to available; 100.00 + 0.50 captured for good.
    expect(after.availableMinor - before.availableMinor).toBe(20_100n);
    expect(before.lockedMinor - after.lockedMinor).toBe(20_100n + 10_050n);

    const again = await ops(
      'payout:batch-import',
      ...channel(),
      '--file',
      file('result.csv'),
      '--reason',
      'bank result again',
    );
    expect(again.out).toContain('0 paid, 0 failed, 2 ended before');
    expect((await balanceRow(db, m.merchant.id))!).toEqual(after);
  });

  it('one payout marked paid by hand; marking it failed after is refused', async () => {
    const paid = await ops(
      'payout:mark-paid',
      ...channel(),
      '--trade-no',
      tradeNos[2],
      '--bank-reference',
      'FT3',
      '--reason',
      'paid by hand',
    );
    expect(paid.code, paid.err).toBe(0);
    expect(await statusOf(tradeNos[2])).toBe('success');
    const repeat = await ops(
      'payout:mark-paid',
      ...channel(),
      '--trade-no',
      tradeNos[2],
      '--bank-reference',
      'FT3',
      '--reason',
      'again',
    );
    expect(repeat.out).toContain('(it was already)');
    const refused = await ops(
      'payout:mark-failed',
      ...channel(),
      '--trade-no',
      tradeNos[2],
      '--failure',
      'The account is closed.',
      '--reason',
      'oops',
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is success; it cannot become failed/);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('a sandbox channel has no batch files', async () => {
    const refused = await ops(
      'payout:batch-export',
      '--merchant',
      m.merchant.no,
      '--channel',
      'nope',
      '--reason',
      'x-x-x',
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/no payout channel nope/);
  });
});
