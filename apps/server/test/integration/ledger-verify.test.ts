import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { horizonMoved } from '../../src/modules/lists/index.ts';
import { fundFlows, holds } from '../../src/db/schema/index.ts';
import {
  createLedger,
  transactionWithRetry,
  trialBalance,
  verifyLedger,
} from '../../src/modules/ledger/index.ts';
import { fundFlowsRepository } from '../../src/modules/ledger/fund-flows.repository.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, type TestContext, testDatabaseKind } from '../helpers/test-app.ts';

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
    await ledger.capture(tx, {
      merchantId: m,
      holdId: withdrawal.hold.id,
      idempotencyKey: k('paid'),
      feeMinor: 100n,
    });
    const paid = await ledger.hold(tx, {
      merchantId: m,
      type: 'payout_deduction',
      amountMinor: 3_000n,
      refType: 'payout',
      refId: '6',
      idempotencyKey: k('payout-paid'),
    });
    await ledger.capture(tx, {
      merchantId: m,
      holdId: paid.hold.id,
      idempotencyKey: k('payout-success'),
      channel: 'sandbox-cn',
      feeMinor: 50n,
    });
    await ledger.post(tx, {
      merchantId: m,
      type: 'payout_refund',
      amountMinor: 2_950n,
      refType: 'payout',
      refId: '6',
      channel: 'sandbox-cn',
      idempotencyKey: k('payout-refunded'),
    });
    await ledger.post(tx, {
      merchantId: m,
      type: 'collection_settlement',
      amountMinor: 9_700n,
      feeMinor: 300n,
      refType: 'settlement',
      refId: '7',
      channel: 'sandbox-cn',
      idempotencyKey: k('settled'),
    });
    await ledger.post(tx, {
      merchantId: m,
      type: 'recharge',
      amountMinor: 70_000n,
      refType: 'recharge',
      refId: '8',
      idempotencyKey: k('recharge'),
    });
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

/** Runs a planted corruption, the check, and the repair (so each test starts healthy). */
async function planted(
  plant: ReturnType<typeof sql>,
  repair: ReturnType<typeof sql>,
  check: () => Promise<void>,
) {
  await db.execute(plant);
  try {
    await check();
  } finally {
    await db.execute(repair);
  }
  expect((await verifyLedger(db)).ok).toBe(true);
}

const victimAccount = (kind: 'available' | 'locked') => `merchant:${victim.id}:${kind}`;

describe('ledger verification', () => {
  it('passes on a healthy database, and the trial balance is zero in every currency', async () => {
    const report = await verifyLedger(db);
    expect(report).toMatchObject({ ok: true, problems: [], truncated: false });
    // Each merchant is two rows, its live one and its test twin (DESIGN 12), each checked.
    expect(report.merchants_checked).toBe(4);
    // Per merchant: 10 entries with a fund flow and 2 captures (which move no available money).
    expect(report.entries_checked).toBe(24);
    const books = await trialBalance(db);
    expect(books.balanced).toBe(true);
    const cny = books.currencies.find((c) => c.currency === 'CNY')!;
    expect(cny.total).toBe('0.00');
    expect(Object.fromEntries(cny.accounts.map((a) => [a.code, a.balance]))).toEqual({
      // Two merchants: settled 100.00 gross each (-200.00); payouts paid 29.50 each; 29.50 each came back.
      'channel_clearing:sandbox-cn:CNY': '-200.00',
      // Fees: 1.00 per paid withdrawal, 0.50 per paid payout, 3.00 per settlement.
      'fee_revenue:CNY': '9.00',
      'operator_adjustments:CNY': '-1950.00',
      'usdt_deposits:CNY': '-1400.00',
      'withdrawals_payable:CNY': '18.00',
    });
    expect(cny.merchants).toEqual({ available: '3323.00', locked: '200.00', count: 2 });
  });

  it('reports a journal entry that does not sum to zero', async () => {
    const [posting] = await queryRows<{ id: unknown }>(
      db,
      sql`select p.id from postings p join journal_entries j on j.id = p.entry_id
          join ledger_accounts a on a.id = p.account_id
          where j.merchant_id = ${victim.id} and j.type = 'transfer_out' and a.kind = 'operator_adjustments'`,
    );
    const id = Number(posting.id);
    await planted(
      sql`update postings set amount_minor = amount_minor + 7 where id = ${id}`,
      sql`update postings set amount_minor = amount_minor - 7 where id = ${id}`,
      async () => {
        const report = await verifyLedger(db);
        expect(invariantsOf(report)).toEqual([
          `${victim.no} entry_balanced`,
          'platform account_equals_postings',
        ]);
        expect(report.problems.find((p) => p.invariant === 'entry_balanced')?.message).toMatch(
          /^journal entry \d+ \(verify:\d+:out\) sums to 0\.07 CNY, not zero$/,
        );
        // One merchant's check looks at its own entries and accounts only.
        expect(invariantsOf(await verifyLedger(db, victim.no))).toEqual([`${victim.no} entry_balanced`]);
        expect((await verifyLedger(db, healthy.no)).ok).toBe(true);
      },
    );
  });

  it('reports an account balance that drifted from its postings, and the trial balance it breaks', async () => {
    await planted(
      sql`update ledger_accounts set balance_minor = balance_minor + 1 where code = ${victimAccount('available')}`,
      sql`update ledger_accounts set balance_minor = balance_minor - 1 where code = ${victimAccount('available')}`,
      async () => {
        const report = await verifyLedger(db);
        expect(invariantsOf(report)).toEqual([
          `${victim.no} account_equals_postings`,
          `${victim.no} available_equals_entries`,
          'platform trial_balance',
        ]);
        expect(report.problems.find((p) => p.invariant === 'trial_balance')?.message).toBe(
          'the live CNY accounts sum to 0.01 CNY, not zero',
        );
        expect(report.problems.find((p) => p.invariant === 'account_equals_postings')?.message).toBe(
          `account ${victimAccount('available')} holds 1661.51 CNY but its postings sum to 1661.50 CNY`,
        );
        expect((await trialBalance(db)).balanced).toBe(false);
      },
    );
  });

  it('reports a broken available_after chain', async () => {
    const [entry] = await db
      .select()
      .from(fundFlows)
      .where(sql`${fundFlows.merchantId} = ${victim.id} and ${fundFlows.type} = 'recharge'`);
    await planted(
      sql`update fund_flows set available_after_minor = available_after_minor - 100 where id = ${entry.id}`,
      sql`update fund_flows set available_after_minor = available_after_minor + 100 where id = ${entry.id}`,
      async () => {
        const report = await verifyLedger(db);
        expect(invariantsOf(report)).toEqual([`${victim.no} available_after_chain`]);
        expect(report.problems[0].message).toBe(
          `entry ${entry.id} records available after 1660.50 CNY but the entries up to it sum to 1661.50 CNY`,
        );
      },
    );
  });

  it('reports a fund flow entry changed behind the ledger', async () => {
    const [entry] = await db
      .select()
      .from(fundFlows)
      .where(sql`${fundFlows.merchantId} = ${victim.id} and ${fundFlows.type} = 'transfer_out'`);
    await planted(
      sql`update fund_flows set amount_minor = amount_minor - 1 where id = ${entry.id}`,
      sql`update fund_flows set amount_minor = amount_minor + 1 where id = ${entry.id}`,
      async () => {
        const report = await verifyLedger(db);
        expect(invariantsOf(report)).toEqual([
          `${victim.no} available_after_chain`,
          `${victim.no} available_equals_entries`,
          `${victim.no} fund_flows_match_postings`,
          `${victim.no} hourly_rollup`,
        ]);
        expect(report.problems.find((p) => p.invariant === 'fund_flows_match_postings')?.message).toBe(
          `fund flow entry ${entry.id} shows -2501 but journal entry ${entry.entryId} posted -2500`,
        );
      },
    );
  });

  it('reports locked funds that do not match the open holds, and a hold without its entry', async () => {
    const [openHold] = await db
      .select()
      .from(holds)
      .where(sql`${holds.merchantId} = ${victim.id} and ${holds.status} = 'open'`);
    await planted(
      sql`update holds set status = 'captured', close_key = 'forged' where id = ${openHold.id}`,
      sql`update holds set status = 'open', close_key = null where id = ${openHold.id}`,
      async () => {
        const report = await verifyLedger(db, victim.no);
        expect(invariantsOf(report)).toEqual([`${victim.no} locked_equals_open_holds`]);
        expect(report.problems[0].message).toBe('locked is 100.00 CNY but open holds sum to 0.00 CNY');
        await db.execute(sql`update holds set status = 'released' where id = ${openHold.id}`);
        const released = await verifyLedger(db, victim.no);
        expect(invariantsOf(released)).toEqual([
          `${victim.no} hold_entries`,
          `${victim.no} locked_equals_open_holds`,
        ]);
        expect(released.problems.find((p) => p.invariant === 'hold_entries')?.message).toMatch(
          /^hold \d+ \(payout_deduction, released\) has 1 opening and 0 release entries, 1 in all$/,
        );
      },
    );
  });

  it('the database itself refuses an unbalanced entry at commit and a negative merchant balance', async () => {
    const before = await verifyLedger(db);
    await expect(
      db.transaction(async (tx) => {
        const [entry] = await queryRows<{ id: unknown }>(
          tx,
          sql`insert into journal_entries (type, merchant_id, ref_type, ref_id, idempotency_key)
              values ('transfer_in', ${victim.id}, 'test', 'x', 'unbalanced-by-hand') returning id`,
        );
        await tx.execute(sql`insert into postings (entry_id, account_id, amount_minor)
          select ${Number(entry.id)}, id, 500 from ledger_accounts where code = ${victimAccount('available')}`);
      }),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update ledger_accounts set balance_minor = -1 where code = ${victimAccount('locked')}`),
    ).rejects.toThrow();
    expect(await verifyLedger(db)).toEqual(before);
  });

  it('closes the days of the daily rollup once over, and reports a day that does not match its hours', async () => {
    const DAY_MS = 24 * 3_600_000;
    const tomorrow = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS);
    const today = new Date(tomorrow.getTime() - DAY_MS).toISOString().slice(0, 10);
    if (testDatabaseKind() === 'postgres') {
      // An entry being back-dated (this transaction began after midnight) holds the days open too.
      await db.transaction(async (tx) => {
        await fundFlowsRepository.keepDaysOpen(tx);
        expect(await fundFlowsRepository.closeDays(db, new Date())).toBeUndefined();
      });
      // A transaction that began before the day's end may still date an entry in it: the days wait.
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select 1');
        expect(
          await fundFlowsRepository.closeDays(db, new Date(tomorrow.getTime() + 3_600_000)),
        ).toBeUndefined();
        await other.query('commit');
      } finally {
        await other.end();
      }
    }
    // As housekeeping closes them once they are over (here: today too, so that today's entries count).
    expect(await fundFlowsRepository.closeDays(db, new Date(tomorrow.getTime() + 3_600_000))).toEqual(
      tomorrow,
    );
    try {
      expect((await verifyLedger(db)).ok).toBe(true);
      const [day] = await queryRows<{ entries: string }>(
        db,
        sql`select entries::text from fund_flow_daily where merchant_id = ${victim.id} and type = 'transfer_out'`,
      );
      expect(Number(day.entries)).toBeGreaterThan(0);
      await db.execute(
        sql`update fund_flow_daily set entries = entries + 1 where merchant_id = ${victim.id} and type = 'transfer_out'`,
      );
      const report = await verifyLedger(db);
      expect(invariantsOf(report)).toEqual([`${victim.no} daily_rollup`]);
      expect(report.problems[0].message).toBe(
        `the daily sums of transfer_out on ${today} (UTC) do not match its hours`,
      );
    } finally {
      await db.execute(sql`delete from fund_flow_daily`);
      await db.execute(sql`delete from rollup_horizons where rollup = 'fund_flow'`);
      horizonMoved(db, 'fund_flow');
    }
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('closes the hours of the minute rollup once over, and reports a minute that does not match its entries', async () => {
    const HOUR_MS = 3_600_000;
    const nextHour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS + HOUR_MS);
    if (testDatabaseKind() === 'postgres') {
      // As the days: a back-dated entry being written, or a transaction begun before the hour's end, waits.
      await db.transaction(async (tx) => {
        await fundFlowsRepository.keepDaysOpen(tx);
        expect(await fundFlowsRepository.closeMinutes(db, nextHour)).toBeUndefined();
      });
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select 1');
        expect(await fundFlowsRepository.closeMinutes(db, nextHour)).toBeUndefined();
        await other.query('commit');
      } finally {
        await other.end();
      }
    }
    // Closed up to the next hour, so that this hour's entries have their minute rows.
    expect(await fundFlowsRepository.closeMinutes(db, nextHour)).toEqual(nextHour);
    try {
      expect((await verifyLedger(db)).ok).toBe(true);
      const [minute] = await queryRows<{ minute: Date | string }>(
        db,
        sql`select minute from fund_flow_minutely where merchant_id = ${victim.id} and type = 'transfer_out'
            order by minute limit 1`,
      );
      expect(minute).toBeDefined();
      await db.execute(
        sql`update fund_flow_minutely set out_minor = out_minor + 1
            where merchant_id = ${victim.id} and type = 'transfer_out' and minute = ${new Date(minute!.minute).toISOString()}::timestamptz`,
      );
      const report = await verifyLedger(db);
      expect(invariantsOf(report)).toEqual([`${victim.no} minute_rollup`]);
      expect(report.problems[0].message).toBe(
        `the minute sums of transfer_out at ${new Date(minute!.minute).toISOString().slice(0, 16).replace('T', ' ')} UTC do not match its entries`,
      );
    } finally {
      await db.execute(sql`delete from fund_flow_minutely`);
      await db.execute(sql`delete from rollup_horizons where rollup = 'fund_flow_minute'`);
      horizonMoved(db, 'fund_flow_minute');
    }
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});
