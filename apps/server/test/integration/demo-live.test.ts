import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../../src/modules/channels/adapters/bank_transfer/index.ts';
import { DEMO_LIVE_GUIDE, seedDemo } from '../../src/modules/demo/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { opsRunner } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The demo's live channels as a new user tries them (DESIGN 13, issue 36's "done when"), by the guide the
// demo writes to DATA_DIR/demo: the waiting order paid by a signed bank notification, the day's statement
// imported and reconciled to a close, the waiting payouts exported and ended by a result file.

let ctx: TestContext;
let token: string;
let guide: string;

const ops = opsRunner(
  () => ctx.app,
  () => token,
  'New Operator',
);

beforeAll(async () => {
  ctx = await createTestApp();
  token = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
  expect(
    await seedDemo(ctx.database.db, {
      appKey: ctx.config.appKey,
      guide: { dataDir: ctx.config.dataDir, port: 8080 },
    }),
  ).toBe(true);
  // Every merchant has its section; these steps are the VND merchant's (VietQR).
  const whole = readFileSync(path.join(ctx.config.dataDir, DEMO_LIVE_GUIDE), 'utf8');
  const from = whole.indexOf('## M100004 (VND)');
  expect(from).toBeGreaterThan(0);
  const to = whole.indexOf('\n## ', from + 1);
  guide = whole.slice(from, to < 0 ? undefined : to);
}, 60_000);
afterAll(() => ctx.close());

describe("the demo's live channels, by its guide", () => {
  it('pays the waiting order by a signed bank notification (twice: once)', async () => {
    const secret = /notification secret of channel `bank`: `([^`]+)`/.exec(guide)![1];
    const body = /BODY='([^']+)'/.exec(guide)![1];
    const tradeNo = JSON.parse(body).reference as string;
    const page = await ctx.app.inject({ method: 'GET', url: `/pay/${tradeNo}?lang=en` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Scan with your banking app (VietQR)');
    for (const seen of [0, 1]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/channels/bank/notify',
        headers: {
          'content-type': 'application/json',
          'x-channel-signature': signNotification(secret, body),
        },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ matched: 1 - seen, seen });
    }
    expect((await ctx.app.services.collections.findAny(tradeNo))?.status).toBe('paid');
  });

  it('imports the statement and reconciles the day to a close', async () => {
    const file = readdirSync(path.join(ctx.config.dataDir, 'demo')).find((f) =>
      f.startsWith('statement-M100004-'),
    )!;
    const day = /(\d{4}-\d{2}-\d{2})/.exec(file)![1];
    const where = ['--merchant', 'M100004', '--channel', 'bank', '--date', day];
    const imported = await ops(
      'statement:import',
      ...where,
      '--format',
      'csv',
      '--file',
      path.join(ctx.config.dataDir, 'demo', file),
      '--reason',
      'daily statement',
    );
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain('1 paid an order, 1 for review, 1 unknown, 1 seen before');
    const report = JSON.parse((await ops('reconcile:show', ...where, '--json')).out);
    // Missing: the order the bank notified before the demo began, and the one paid above by hand.
    expect(report).toMatchObject({ left: 4 });
    expect(report.missing).toHaveLength(2);
    expect(report.differences[0].problem).toBe('amount_differs');
    await ops(
      'reconcile:resolve',
      ...where,
      '--payment',
      String(report.unknown[0].id),
      '--action',
      'refund_to_payer',
      '--reason',
      'returned',
    );
    await ops(
      'reconcile:resolve',
      ...where,
      '--payment',
      String(report.differences[0].id),
      '--action',
      'mark_paid',
      '--reason',
      'short by one unit, accepted',
    );
    for (const missing of report.missing)
      await ops(
        'reconcile:resolve',
        ...where,
        '--trade-no',
        missing.trade_no,
        '--action',
        'ledger_adjustment',
        '--amount=-1',
        '--reason',
        'not on the statement',
      );
    const closed = await ops('reconcile:close', ...where, '--reason', 'day done');
    expect(closed.code, closed.err).toBe(0);
  });

  it("exports the waiting payouts and ends them with the bank's result file", async () => {
    const out = path.join(ctx.config.dataDir, 'batch.csv');
    const exported = await ops(
      'payout:batch-export',
      '--merchant',
      'M100004',
      '--channel',
      'bank-payout',
      '--out',
      out,
      '--reason',
      'morning batch',
    );
    expect(exported.out).toMatch(/3 payout\(s\)/);
    const tradeNos = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    const result = path.join(ctx.config.dataDir, 'result.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      result,
      [
        'Reference,Status,Bank reference,Reason',
        `${tradeNos[0]},PAID,VCB1,`,
        `${tradeNos[1]},PAID,VCB2,`,
        `${tradeNos[2]},FAILED,,Account closed`,
      ].join('\n'),
    );
    const imported = await ops(
      'payout:batch-import',
      '--merchant',
      'M100004',
      '--channel',
      'bank-payout',
      '--file',
      result,
      '--reason',
      'bank result',
    );
    expect(imported.out).toContain('3 line(s): 2 paid, 1 failed');
    expect((await verifyLedger(ctx.database.db)).problems).toEqual([]);
  });
});
