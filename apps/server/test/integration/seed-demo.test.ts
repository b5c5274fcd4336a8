import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_NO, DEMO_PASSWORD, seedDemo } from '../../src/modules/demo/index.ts';
import { trialBalance, verifyLedger } from '../../src/modules/ledger/index.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Each test has its own database, so either runs alone (vitest -t).
let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

describe('the demo merchant', () => {
  it('starts with five weeks of fund flow posted through the ledger, and a frozen amount', async () => {
    expect(await seedDemo(ctx.database.db)).toBe(true);
    const finance = await loginAs(ctx.app, 'finance@demo.paydesk.test', DEMO_PASSWORD);

    const balance = (await finance.get('/api/merchant/balance')).json().data;
    expect(balance).toEqual({
      total: '154789.24',
      available: '149789.24',
      locked: '5000.00',
      currency: 'CNY',
    });

    const list = (await finance.get('/api/merchant/fund-flows?per_page=100')).json();
    expect(list.meta).toMatchObject({ total: 22, sums: { money_in: '172019.99', money_out: '22230.75' } });
    const types = new Set(list.data.map((e: { type: string }) => e.type));
    expect(types).toEqual(new Set(['transfer_in', 'transfer_out', 'funds_frozen']));
    // Newest first, the newest from yesterday, the oldest five weeks back, each with an operator reference.
    const times = list.data.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Date.now() - times[0]).toBeLessThan(2 * 86_400_000);
    expect(Date.now() - times.at(-1)).toBeGreaterThan(34 * 86_400_000);
    expect(list.data.every((e: { ref_no: string }) => /^OA\d{8}$/.test(e.ref_no))).toBe(true);
    expect(list.data[0].available_after).toBe(balance.available);

    expect((await verifyLedger(ctx.database.db, DEMO_MERCHANT_NO)).ok).toBe(true);
    // The books balance: the operator's transfers against the merchant's available and frozen money.
    const books = await trialBalance(ctx.database.db);
    expect(books.balanced).toBe(true);
    expect(books.currencies).toEqual([
      {
        currency: 'CNY',
        accounts: [
          {
            code: 'operator_adjustments:CNY',
            kind: 'operator_adjustments',
            channel: null,
            balance: '-154789.24',
          },
        ],
        merchants: { available: '149789.24', locked: '5000.00', count: 1 },
        total: '0.00',
      },
    ]);
  });

  it('seeds only an empty database', async () => {
    expect(await seedDemo(ctx.database.db)).toBe(true);
    expect(await seedDemo(ctx.database.db)).toBe(false);
    const report = await verifyLedger(ctx.database.db);
    expect(report).toMatchObject({ ok: true, merchants_checked: 1, entries_checked: 22 });
  });
});
