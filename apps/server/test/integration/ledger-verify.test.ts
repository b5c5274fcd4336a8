import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { balances, fundFlows, holds } from '../../src/db/schema/index.ts';
import { createLedger, transactionWithRetry, verifyLedger } from '../../src/modules/ledger/index.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

let ctx: TestContext;
let db: Db;
const ledger = createLedger();
let healthy: { id: number; no: string };
let victim: { id: number; no: string };

/** A merchant with a realistic little history: money in, out, a payout in flight, a freeze lifted. */
async function merchantWithHistory() {
  const { merchant } = await createMerchant(db, { roles: [] });
  const m = merchant.id;
  const k = (s: string) => `verify:${m}:${s}`;
  await transactionWithRetry(db, async (tx) => {
    await ledger.post(tx, {
      merchantId: m,
      type: 'transfer_in',
      amountMinor: 100_000n,
      refType: 't',
      refId: '1',
      idempotencyKey: k('in'),
    });
    await ledger.post(tx, {
      merchantId: m,
      type: 'transfer_out',
      amountMinor: -2_500n,
      refType: 't',
      refId: '2',
      idempotencyKey: k('out'),
    });
    const payout = await ledger.hold(tx, {
      merchantId: m,
      type: 'payout_deduction',
      amountMinor: 10_000n,
      refType: 'payout',
      refId: '3',
      idempotencyKey: k('payout'),
    });
    const freeze = await ledger.hold(tx, {
      merchantId: m,
      type: 'funds_frozen',
      amountMinor: 5_000n,
      refType: 't',
      refId: '4',
      idempotencyKey: k('freeze'),
    });
    await ledger.release(tx, { merchantId: m, holdId: freeze.hold.id, idempotencyKey: k('unfreeze') });
    const withdrawal = await ledger.hold(tx, {
      merchantId: m,
      type: 'withdrawal',
      amountMinor: 1_000n,
      refType: 'withdrawal',
      refId: '5',
      idempotencyKey: k('withdrawal'),
    });
    await ledger.capture(tx, { merchantId: m, holdId: withdrawal.hold.id, idempotencyKey: k('paid') });
    return payout;
  });
  return { id: m, no: merchant.no };
}

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  healthy = await merchantWithHistory();
  victim = await merchantWithHistory();
});
afterAll(() => ctx.close());

const invariantsOf = (report: Awaited<ReturnType<typeof verifyLedger>>) =>
  [...new Set(report.problems.map((p) => `${p.merchant_no} ${p.invariant}`))].sort();

describe('ledger verification', () => {
  it('passes on a healthy database', async () => {
    const report = await verifyLedger(db);
    expect(report).toMatchObject({ ok: true, problems: [], truncated: false });
    expect(report.merchants_checked).toBe(2);
    expect(report.entries_checked).toBe(12);
  });

  it('reports an entry whose amount was changed behind the ledger', async () => {
    const [entry] = await db
      .select()
      .from(fundFlows)
      .where(sql`${fundFlows.merchantId} = ${victim.id} and ${fundFlows.type} = 'transfer_out'`);
    await db.execute(sql`update fund_flows set amount_minor = amount_minor - 1 where id = ${entry.id}`);

    const report = await verifyLedger(db);
    expect(report.ok).toBe(false);
    expect(invariantsOf(report)).toEqual([
      `${victim.no} available_after_chain`,
      `${victim.no} available_equals_entries`,
      `${victim.no} hourly_rollup`,
    ]);
    const problem = report.problems.find((p) => p.invariant === 'available_equals_entries');
    expect(problem?.message).toBe('available is 865.00 CNY but its entries sum to 864.99 CNY');
    // The healthy merchant alone still passes.
    expect((await verifyLedger(db, healthy.no)).ok).toBe(true);

    await db.execute(sql`update fund_flows set amount_minor = amount_minor + 1 where id = ${entry.id}`);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('reports locked funds that do not match the open holds, and a hold without its entry', async () => {
    await db.execute(
      sql`update balances set locked_minor = locked_minor + 300 where merchant_id = ${victim.id}`,
    );
    const [openHold] = await db
      .select()
      .from(holds)
      .where(sql`${holds.merchantId} = ${victim.id} and ${holds.status} = 'open'`);
    await db.execute(
      sql`update holds set status = 'captured', close_key = 'forged' where id = ${openHold.id}`,
    );

    const report = await verifyLedger(db, victim.no);
    expect(invariantsOf(report)).toEqual([`${victim.no} locked_equals_open_holds`]);
    expect(report.problems[0].message).toBe('locked is 103.00 CNY but open holds sum to 0.00 CNY');

    await db.execute(
      sql`update holds set status = 'released', close_key = 'forged' where id = ${openHold.id}`,
    );
    const released = await verifyLedger(db, victim.no);
    expect(invariantsOf(released)).toEqual([
      `${victim.no} hold_entries`,
      `${victim.no} locked_equals_open_holds`,
    ]);
    expect(released.problems.find((p) => p.invariant === 'hold_entries')?.message).toMatch(
      /^hold \d+ \(payout_deduction, released\) has 1 opening and 0 release entries, 1 in all$/,
    );

    await db.execute(sql`update holds set status = 'open', close_key = null where id = ${openHold.id}`);
    await db.execute(
      sql`update balances set locked_minor = locked_minor - 300 where merchant_id = ${victim.id}`,
    );
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('reports a balance row edited by hand', async () => {
    await db.update(balances).set({ availableMinor: 1n }).where(eq(balances.merchantId, victim.id));
    const report = await verifyLedger(db);
    expect(invariantsOf(report)).toEqual([`${victim.no} available_equals_entries`]);
  });
});
