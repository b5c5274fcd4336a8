import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { fundFlows, holds } from '../../src/db/schema/index.ts';
import {
  createLedger,
  HoldClosedError,
  InsufficientFundsError,
  LedgerUsageError,
  transactionWithRetry,
  trialBalance,
  verifyLedger,
} from '../../src/modules/ledger/index.ts';
import type { HoldInput, PostInput } from '../../src/modules/ledger/index.ts';
import { balanceRow, booksOutOfBalance } from '../helpers/ledger.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

let ctx: TestContext;
let db: Db;
const ledger = createLedger();

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
});
afterAll(() => ctx.close());

const newMerchant = async () => (await createMerchant(db, { roles: [] })).merchant.id;

let keySeq = 0;
const key = (label: string) => `test:${label}:${++keySeq}:${Math.random().toString(36).slice(2, 8)}`;

const post = (input: Omit<PostInput, 'refType' | 'refId' | 'idempotencyKey'> & { idempotencyKey?: string }) =>
  transactionWithRetry(db, (tx) =>
    ledger.post(tx, { refType: 'test', refId: 'test', idempotencyKey: key(input.type), ...input }),
  );
const hold = (input: Omit<HoldInput, 'refType' | 'refId' | 'idempotencyKey'> & { idempotencyKey?: string }) =>
  transactionWithRetry(db, (tx) =>
    ledger.hold(tx, { refType: 'test', refId: 'test', idempotencyKey: key(input.type), ...input }),
  );
// A tenth of the hold is our fee, the rest goes to the channel (payouts) or the wallet (withdrawals).
const capture = (merchantId: number, holdId: number, idempotencyKey: string) =>
  transactionWithRetry(db, async (tx) => {
    const held = await ledger.findHold(tx, merchantId, holdId);
    const feeMinor = (held?.amountMinor ?? 0n) / 10n;
    return ledger.capture(tx, { merchantId, holdId, idempotencyKey, channel: 'sandbox', feeMinor });
  });
const release = (merchantId: number, holdId: number, idempotencyKey: string) =>
  transactionWithRetry(db, (tx) => ledger.release(tx, { merchantId, holdId, idempotencyKey }));

/** What the tables say about one merchant. */
async function stateOf(merchantId: number) {
  const balance = await balanceRow(db, merchantId);
  const [sums] = await db
    .select({
      entries: sql<string>`coalesce(sum(${fundFlows.amountMinor}), 0)::text`,
      count: sql<string>`count(*)::text`,
    })
    .from(fundFlows)
    .where(eq(fundFlows.merchantId, merchantId));
  const [held] = await db
    .select({ total: sql<string>`coalesce(sum(${holds.amountMinor}), 0)::text` })
    .from(holds)
    .where(sql`${holds.merchantId} = ${merchantId} and ${holds.status} = 'open'`);
  return {
    hasBalanceRow: balance !== undefined,
    available: balance?.availableMinor ?? 0n,
    locked: balance?.lockedMinor ?? 0n,
    entriesSum: BigInt(sums.entries),
    entryCount: Number(sums.count),
    openHolds: BigInt(held.total),
  };
}

const outcomes = <T>(results: PromiseSettledResult<T>[]) => ({
  fulfilled: results
    .filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled')
    .map((r) => r.value),
  rejected: results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason),
});

describe('deductions never overdraw, whatever runs at the same time', () => {
  it('200 concurrent transfer-outs of 10.00 against 1,000.00: exactly 100 succeed', async () => {
    const merchantId = await newMerchant();
    await post({ merchantId, type: 'transfer_in', amountMinor: 100_000n });

    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => post({ merchantId, type: 'transfer_out', amountMinor: -1_000n })),
    );
    const { fulfilled, rejected } = outcomes(results);
    expect(fulfilled).toHaveLength(100);
    expect(rejected).toHaveLength(100);
    for (const error of rejected) {
      expect(error).toBeInstanceOf(InsufficientFundsError);
      expect(error).toMatchObject({ status: 422, code: 'insufficient_funds' });
      expect((error as Error).message).toBe('Insufficient available balance.');
    }
    // Every success saw a distinct balance on its way down to zero.
    const afters = fulfilled.map((r) => r.entry.availableAfterMinor).sort((a, b) => Number(a - b));
    expect(afters).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i) * 1_000n));

    const state = await stateOf(merchantId);
    expect(state.available).toBe(0n);
    expect(state.entriesSum).toBe(state.available);
    expect(state.entryCount).toBe(101);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('both modes at once (DESIGN 12): each row keeps its own limit, and each mode its own books', async () => {
    const liveId = await newMerchant();
    const [{ id: testId }] = await queryRows<{ id: number }>(
      db,
      sql`select id::int as id from merchants where live_merchant_id = ${liveId}`,
    );
    await post({ merchantId: liveId, type: 'transfer_in', amountMinor: 100_000n });
    await post({ merchantId: testId, type: 'transfer_in', amountMinor: 50_000n });
    // Interleaved: 100 deductions of 10.00 and 50 settlements (with a fee) on each row, all at once.
    const work = Array.from({ length: 100 }, (_, i) =>
      [liveId, testId].flatMap((merchantId) => [
        post({ merchantId, type: 'transfer_out', amountMinor: -1_000n }),
        ...(i % 2 === 0
          ? [
              post({
                merchantId,
                type: 'collection_settlement',
                amountMinor: 990n,
                feeMinor: 10n,
                channel: 'sandbox',
              }),
            ]
          : []),
      ]),
    ).flat();
    const { fulfilled, rejected } = outcomes(await Promise.allSettled(work));
    expect(rejected.every((e) => e instanceof InsufficientFundsError)).toBe(true);
    expect(fulfilled.length + rejected.length).toBe(300);
    for (const merchantId of [liveId, testId]) {
      const state = await stateOf(merchantId);
      expect(state.available).toBeGreaterThanOrEqual(0n);
      expect(state.entriesSum).toBe(state.available);
    }
    // What each row could spend: its funds and settlements; the other mode's money never helped.
    const spent = async (merchantId: number) =>
      (await db.select().from(fundFlows).where(eq(fundFlows.merchantId, merchantId))).filter(
        (f) => f.type === 'transfer_out',
      ).length;
    const testSpent = await spent(testId);
    expect(testSpent).toBeGreaterThanOrEqual(50);
    expect(testSpent).toBeLessThanOrEqual(50 + Math.floor((50 * 990) / 1_000));
    expect(await spent(liveId)).toBe(100);
    // Every refusal was the test row's, which had less to spend.
    expect(rejected).toHaveLength(100 - testSpent);

    const report = await verifyLedger(db);
    expect(report.problems).toEqual([]);
    const books = await trialBalance(db);
    expect(books.balanced).toBe(true);
    const test = books.currencies.find((c) => c.mode === 'test' && c.currency === 'CNY')!;
    expect(test.accounts.map((a) => a.code).sort()).toEqual([
      'test:channel_clearing:sandbox:CNY',
      'test:fee_revenue:CNY',
      'test:operator_adjustments:CNY',
    ]);
    expect(test.accounts.find((a) => a.kind === 'fee_revenue')?.balance).toBe('5.00');
  });

  it('a merchant with no balance row: 2 concurrent deductions of 0.01 are refused and write nothing', async () => {
    const merchantId = await newMerchant();
    const results = await Promise.allSettled([
      post({ merchantId, type: 'transfer_out', amountMinor: -1n }),
      post({ merchantId, type: 'transfer_out', amountMinor: -1n }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientFundsError);
    expect(await stateOf(merchantId)).toMatchObject({ hasBalanceRow: false, entryCount: 0, openHolds: 0n });

    const holdResults = await Promise.allSettled([
      hold({ merchantId, type: 'payout_deduction', amountMinor: 1n }),
      hold({ merchantId, type: 'withdrawal', amountMinor: 1n }),
    ]);
    expect(holdResults.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const [holdCount] = await db
      .select({ n: sql<string>`count(*)::text` })
      .from(holds)
      .where(eq(holds.merchantId, merchantId));
    expect(holdCount.n).toBe('0');
    expect(await stateOf(merchantId)).toMatchObject({ hasBalanceRow: false, entryCount: 0 });
  });

  it('concurrent first credits of a merchant without a balance row all land', async () => {
    const merchantId = await newMerchant();
    await Promise.all(
      Array.from({ length: 10 }, () => post({ merchantId, type: 'recharge', amountMinor: 150n })),
    );
    const state = await stateOf(merchantId);
    expect(state.available).toBe(1_500n);
    expect(state.entriesSum).toBe(1_500n);
  });
});

describe('idempotency: a repeat returns the first result and writes nothing', () => {
  it('the same posting key twice: one entry, the second answer is the first', async () => {
    const merchantId = await newMerchant();
    const idempotencyKey = key('twice');
    const first = await post({ merchantId, type: 'transfer_in', amountMinor: 5_000n, idempotencyKey });
    const second = await post({ merchantId, type: 'transfer_in', amountMinor: 5_000n, idempotencyKey });
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.entry.id).toBe(first.entry.id);
    expect(second.entry.availableAfterMinor).toBe(5_000n);
    expect(await stateOf(merchantId)).toMatchObject({ available: 5_000n, entryCount: 1 });
  });

  it('the same posting key twenty times concurrently: one entry', async () => {
    const merchantId = await newMerchant();
    await post({ merchantId, type: 'transfer_in', amountMinor: 10_000n });
    for (const [type, amountMinor] of [
      ['transfer_in', 700n],
      ['transfer_out', -700n],
    ] as const) {
      const idempotencyKey = key('twenty');
      const before = await stateOf(merchantId);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => post({ merchantId, type, amountMinor, idempotencyKey })),
      );
      expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const after = await stateOf(merchantId);
      expect(after.entryCount).toBe(before.entryCount + 1);
      expect(after.available).toBe(before.available + amountMinor);
      expect(after.entriesSum).toBe(after.available);
    }
  });

  it('a repeated deduction replays even when the money is gone since', async () => {
    const merchantId = await newMerchant();
    await post({ merchantId, type: 'transfer_in', amountMinor: 1_000n });
    const idempotencyKey = key('spent');
    const first = await post({ merchantId, type: 'transfer_out', amountMinor: -1_000n, idempotencyKey });
    const again = await post({ merchantId, type: 'transfer_out', amountMinor: -1_000n, idempotencyKey });
    expect(again).toMatchObject({ replayed: true, entry: { id: first.entry.id } });
    expect(await stateOf(merchantId)).toMatchObject({ available: 0n, entryCount: 2 });
  });

  it('the same hold key twenty times concurrently: one hold, one entry', async () => {
    const merchantId = await newMerchant();
    await post({ merchantId, type: 'transfer_in', amountMinor: 10_000n });
    const idempotencyKey = key('hold-twenty');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        hold({ merchantId, type: 'payout_deduction', amountMinor: 2_500n, idempotencyKey }),
      ),
    );
    expect(new Set(results.map((r) => r.hold.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await stateOf(merchantId)).toMatchObject({ available: 7_500n, locked: 2_500n, entryCount: 2 });
  });
});

describe('holds: captured or released once', () => {
  it('a hold of 600 from 1,000, then 50 concurrent captures and 50 concurrent releases: exactly one wins', async () => {
    const winners: string[] = [];
    for (let round = 0; round < 4; round++) {
      const merchantId = await newMerchant();
      await post({ merchantId, type: 'transfer_in', amountMinor: 100_000n });
      const { hold: held } = await hold({ merchantId, type: 'withdrawal', amountMinor: 60_000n });
      expect(await stateOf(merchantId)).toMatchObject({ available: 40_000n, locked: 60_000n });

      const attempts = Array.from({ length: 100 }, (_, i) => ({
        kind: i % 2 ? 'release' : 'capture',
        key: key(`close-${i}`),
      }));
      // Interleave them so neither kind has a head start.
      const results = await Promise.allSettled(
        attempts.map((a) =>
          a.kind === 'capture' ? capture(merchantId, held.id, a.key) : release(merchantId, held.id, a.key),
        ),
      );
      const { fulfilled, rejected } = outcomes(results);
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(99);
      for (const error of rejected) {
        expect(error).toBeInstanceOf(HoldClosedError);
        expect(error).toMatchObject({ status: 409, code: 'invalid_transition' });
      }
      const winnerIndex = results.findIndex((r) => r.status === 'fulfilled');
      const winner = attempts[winnerIndex];
      winners.push(winner.kind);

      const state = await stateOf(merchantId);
      expect(state.locked).toBe(0n);
      expect(state.openHolds).toBe(0n);
      expect(state.available).toBe(winner.kind === 'capture' ? 40_000n : 100_000n);
      expect(state.entriesSum).toBe(state.available);
      expect(state.entryCount).toBe(winner.kind === 'capture' ? 2 : 3);

      // The winner's key replays; nothing moves again.
      const replay =
        winner.kind === 'capture'
          ? await capture(merchantId, held.id, winner.key)
          : await release(merchantId, held.id, winner.key);
      expect(replay.replayed).toBe(true);
      expect(await stateOf(merchantId)).toEqual(state);
    }
    expect(winners).toHaveLength(4);
  });

  it('release gives the money back with the entry type matching the hold', async () => {
    const merchantId = await newMerchant();
    await post({ merchantId, type: 'transfer_in', amountMinor: 9_000n });
    const pairs = [
      ['payout_deduction', 'payout_refund'],
      ['withdrawal', 'withdrawal_rejected'],
      ['funds_frozen', 'funds_unfrozen'],
    ] as const;
    for (const [holdType, releaseType] of pairs) {
      const held = await hold({ merchantId, type: holdType, amountMinor: 1_000n });
      expect(held.entry).toMatchObject({ type: holdType, amountMinor: -1_000n, holdId: held.hold.id });
      const released = await release(merchantId, held.hold.id, key('release'));
      expect(released.entry).toMatchObject({ type: releaseType, amountMinor: 1_000n, holdId: held.hold.id });
    }
    expect(await stateOf(merchantId)).toMatchObject({ available: 9_000n, locked: 0n, entryCount: 7 });
  });

  it("another merchant's hold is not found", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    await post({ merchantId: owner, type: 'transfer_in', amountMinor: 1_000n });
    const { hold: held } = await hold({ merchantId: owner, type: 'funds_frozen', amountMinor: 500n });
    await expect(release(stranger, held.id, key('steal'))).rejects.toMatchObject({ status: 404 });
    expect(await stateOf(owner)).toMatchObject({ available: 500n, locked: 500n });
  });
});

describe('double entry: each operation writes one journal entry with the postings of DESIGN section 3', () => {
  /** The postings of the entry with this key, as "account: amount", the merchant's accounts by name. */
  async function postingsOf(merchantId: number, idempotencyKey: string) {
    const rows = await queryRows<{ code: string; amount: unknown; type: string }>(
      db,
      sql`select a.code, p.amount_minor::text as amount, j.type
          from journal_entries j join postings p on p.entry_id = j.id join ledger_accounts a on a.id = p.account_id
          where j.idempotency_key = ${idempotencyKey} order by p.id`,
    );
    // Platform accounts by name, whatever shard this merchant posts to.
    const name = (code: string) => code.replace(`merchant:${merchantId}:`, 'merchant_').replace(/#\d+$/, '');
    return {
      type: rows[0]?.type,
      postings: Object.fromEntries(rows.map((r) => [name(r.code), BigInt(String(r.amount))])),
    };
  }

  it('transfers, settlements, payouts paid and refunded, top-ups, withdrawals paid and rejected', async () => {
    const m = await newMerchant();
    const steps: {
      label: string;
      run: (k: string) => Promise<unknown>;
      expected: Record<string, bigint>;
      type: string;
    }[] = [];
    let payoutHold = 0;
    let withdrawalHold = 0;
    let rejectedHold = 0;
    /** A step that holds `amountMinor` and hands the hold's id to `keep`, for the step that ends it. */
    const holding =
      (type: HoldInput['type'], amountMinor: bigint, keep: (holdId: number) => void) => async (k: string) => {
        keep((await hold({ merchantId: m, type, amountMinor, idempotencyKey: k })).hold.id);
      };
    /** A step that captures the hold `holdId()` answers, keeping `feeMinor`, the rest through `channel`. */
    const capturing = (holdId: () => number, feeMinor: bigint, channel?: string) => (k: string) =>
      transactionWithRetry(db, (tx) =>
        ledger.capture(tx, {
          merchantId: m,
          holdId: holdId(),
          idempotencyKey: k,
          ...(channel ? { channel } : {}),
          feeMinor,
        }),
      );
    steps.push(
      {
        label: 'transfer in',
        type: 'transfer_in',
        run: (k) => post({ merchantId: m, type: 'transfer_in', amountMinor: 100_000n, idempotencyKey: k }),
        expected: { merchant_available: 100_000n, 'operator_adjustments:CNY': -100_000n },
      },
      {
        label: 'settlement of 1,000.00 gross with 30.00 fees',
        type: 'collection_settlement',
        run: (k) =>
          post({
            merchantId: m,
            type: 'collection_settlement',
            amountMinor: 97_000n,
            feeMinor: 3_000n,
            channel: 'sandbox-cn',
            idempotencyKey: k,
          }),
        expected: {
          merchant_available: 97_000n,
          'channel_clearing:sandbox-cn:CNY': -100_000n,
          'fee_revenue:CNY': 3_000n,
        },
      },
      {
        label: 'payout of 500.00 + 15.00 fee created',
        type: 'payout_deduction',
        run: holding('payout_deduction', 51_500n, (id) => (payoutHold = id)),
        expected: { merchant_available: -51_500n, merchant_locked: 51_500n },
      },
      {
        label: 'payout succeeded',
        type: 'payout_paid',
        run: capturing(() => payoutHold, 1_500n, 'sandbox-cn'),
        expected: {
          merchant_locked: -51_500n,
          'channel_clearing:sandbox-cn:CNY': 50_000n,
          'fee_revenue:CNY': 1_500n,
        },
      },
      {
        label: 'paid payout came back (refund received, fee kept)',
        type: 'payout_refund',
        run: (k) =>
          post({
            merchantId: m,
            type: 'payout_refund',
            amountMinor: 50_000n,
            channel: 'sandbox-cn',
            idempotencyKey: k,
          }),
        expected: { merchant_available: 50_000n, 'channel_clearing:sandbox-cn:CNY': -50_000n },
      },
      {
        label: 'top-up approved',
        type: 'recharge',
        run: (k) => post({ merchantId: m, type: 'recharge', amountMinor: 20_000n, idempotencyKey: k }),
        expected: { merchant_available: 20_000n, 'usdt_deposits:CNY': -20_000n },
      },
      {
        label: 'withdrawal of 100.00 + 10.00 fee requested',
        type: 'withdrawal',
        run: holding('withdrawal', 11_000n, (id) => (withdrawalHold = id)),
        expected: { merchant_available: -11_000n, merchant_locked: 11_000n },
      },
      {
        label: 'withdrawal paid',
        type: 'withdrawal_paid',
        run: capturing(() => withdrawalHold, 1_000n),
        expected: {
          merchant_locked: -11_000n,
          'withdrawals_payable:CNY': 10_000n,
          'fee_revenue:CNY': 1_000n,
        },
      },
      {
        label: 'another withdrawal requested',
        type: 'withdrawal',
        run: holding('withdrawal', 5_000n, (id) => (rejectedHold = id)),
        expected: { merchant_available: -5_000n, merchant_locked: 5_000n },
      },
      {
        label: 'and rejected',
        type: 'withdrawal_rejected',
        run: (k) => release(m, rejectedHold, k),
        expected: { merchant_available: 5_000n, merchant_locked: -5_000n },
      },
      {
        label: 'transfer out',
        type: 'transfer_out',
        run: (k) => post({ merchantId: m, type: 'transfer_out', amountMinor: -7_000n, idempotencyKey: k }),
        expected: { merchant_available: -7_000n, 'operator_adjustments:CNY': 7_000n },
      },
    );
    for (const step of steps) {
      const k = key(step.label);
      await step.run(k);
      const written = await postingsOf(m, k);
      expect({ step: step.label, ...written }).toEqual({
        step: step.label,
        type: step.type,
        postings: step.expected,
      });
      // A repeat answers the first result and writes nothing.
      const entries = await queryRows<{ count: unknown }>(
        db,
        sql`select count(*)::int as count from postings`,
      );
      await step.run(k).catch(() => undefined);
      const again = await queryRows<{ count: unknown }>(db, sql`select count(*)::int as count from postings`);
      expect(Number(again[0].count)).toBe(Number(entries[0].count));
    }
    expect(await stateOf(m)).toMatchObject({ available: 197_500n, locked: 0n });
    expect(await booksOutOfBalance(db)).toEqual({
      unbalancedEntries: [],
      unbalancedCurrencies: [],
      driftedAccounts: [],
    });
  });

  it('a payout capture needs its channel, the fee must fit the hold, and a freeze is only ever released', async () => {
    const m = await newMerchant();
    await post({ merchantId: m, type: 'transfer_in', amountMinor: 10_000n });
    const payout = await hold({ merchantId: m, type: 'payout_deduction', amountMinor: 1_000n });
    const freeze = await hold({ merchantId: m, type: 'funds_frozen', amountMinor: 1_000n });
    const captureWith = (holdId: number, extra: { channel?: string; feeMinor?: bigint }) =>
      transactionWithRetry(db, (tx) =>
        ledger.capture(tx, { merchantId: m, holdId, idempotencyKey: key('c'), ...extra }),
      );
    await expect(captureWith(payout.hold.id, {})).rejects.toBeInstanceOf(LedgerUsageError);
    await expect(
      captureWith(payout.hold.id, { channel: 'sandbox', feeMinor: 1_001n }),
    ).rejects.toBeInstanceOf(LedgerUsageError);
    await expect(captureWith(freeze.hold.id, { channel: 'sandbox' })).rejects.toThrow(/only ever released/);
    await expect(
      post({ merchantId: m, type: 'collection_settlement', amountMinor: 1_000n }),
    ).rejects.toBeInstanceOf(LedgerUsageError);
    expect(await stateOf(m)).toMatchObject({ available: 8_000n, locked: 2_000n });
    // The whole hold as fee: nothing reaches the channel, one posting less.
    await captureWith(payout.hold.id, { channel: 'sandbox', feeMinor: 1_000n });
    expect(await stateOf(m)).toMatchObject({ available: 8_000n, locked: 1_000n });
  });
});

// ---- Property test: random operations, run concurrently, checked against a model after every step.

type Op =
  | { kind: 'credit'; amount: bigint }
  | { kind: 'debit'; amount: bigint }
  | { kind: 'hold'; amount: bigint; type: 'payout_deduction' | 'withdrawal' }
  | { kind: 'freeze'; amount: bigint }
  | { kind: 'capture'; pick: number }
  | { kind: 'release'; pick: number }
  | { kind: 'unfreeze'; pick: number }
  | { kind: 'repeat'; pick: number };

const amountArb = fc.bigInt({ min: 1n, max: 4_000n });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: amountArb.map((amount) => ({ kind: 'credit' as const, amount })), weight: 3 },
  { arbitrary: amountArb.map((amount) => ({ kind: 'debit' as const, amount })), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('hold' as const),
      amount: amountArb,
      type: fc.constantFrom('payout_deduction' as const, 'withdrawal' as const),
    }),
    weight: 3,
  },
  { arbitrary: amountArb.map((amount) => ({ kind: 'freeze' as const, amount })), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ kind: 'capture' as const, pick })), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ kind: 'release' as const, pick })), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ kind: 'unfreeze' as const, pick })), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ kind: 'repeat' as const, pick })), weight: 1 },
);
// A step is a batch of operations started at the same time; a run is a sequence of steps.
const runArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 });

type ModelHold = { id: number; amount: bigint; type: string; status: 'open' | 'captured' | 'released' };
type Model = { available: bigint; locked: bigint; holds: Map<number, ModelHold>; posted: PostInput[] };

async function runSteps(steps: Op[][]) {
  const merchantId = await newMerchant();
  const model: Model = { available: 0n, locked: 0n, holds: new Map(), posted: [] };
  const pickHold = (pick: number, freezes: boolean) => {
    const open = [...model.holds.values()].filter(
      (h) => h.status === 'open' && (h.type === 'funds_frozen') === freezes,
    );
    return open.length ? open[pick % open.length] : undefined;
  };

  for (const step of steps) {
    const availableBefore = model.available;
    // Resolve each operation against the state at the start of the step.
    const planned = step
      .map((op) => {
        switch (op.kind) {
          case 'credit':
          case 'debit': {
            const input: PostInput = {
              merchantId,
              type: op.kind === 'credit' ? 'transfer_in' : 'transfer_out',
              amountMinor: op.kind === 'credit' ? op.amount : -op.amount,
              refType: 'property',
              refId: 'p',
              idempotencyKey: key(op.kind),
            };
            return {
              op,
              debit: op.kind === 'debit' ? op.amount : 0n,
              run: () => transactionWithRetry(db, (tx) => ledger.post(tx, input)),
              input,
            };
          }
          case 'hold':
          case 'freeze': {
            const type = op.kind === 'freeze' ? 'funds_frozen' : op.type;
            const input: HoldInput = {
              merchantId,
              type,
              amountMinor: op.amount,
              refType: 'property',
              refId: 'p',
              idempotencyKey: key(op.kind),
            };
            return {
              op,
              debit: op.amount,
              run: () => transactionWithRetry(db, (tx) => ledger.hold(tx, input)),
              input,
            };
          }
          case 'capture':
          case 'release':
          case 'unfreeze': {
            const target = pickHold(op.pick, op.kind === 'unfreeze');
            if (!target) return undefined;
            const closeKey = key(op.kind);
            const run = () =>
              op.kind === 'capture'
                ? capture(merchantId, target.id, closeKey)
                : release(merchantId, target.id, closeKey);
            return { op, debit: 0n, run, target };
          }
          case 'repeat': {
            if (!model.posted.length) return undefined;
            const input = model.posted[op.pick % model.posted.length];
            return {
              op,
              debit: 0n,
              run: () => transactionWithRetry(db, (tx) => ledger.post(tx, input)),
              repeatOf: input,
            };
          }
        }
      })
      .filter((p) => p !== undefined);

    const results = await Promise.allSettled(planned.map((p) => p.run()));

    // Apply what actually happened to the model, and check every refusal was a fair one.
    const succeededDebits = planned.reduce(
      (sum, p, i) => (results[i].status === 'fulfilled' ? sum + p.debit : sum),
      0n,
    );
    const closedTargets = new Map<number, number>();
    planned.forEach((p, i) => {
      const result = results[i];
      const { op } = p;
      if (result.status === 'rejected') {
        if (op.kind === 'debit' || op.kind === 'hold' || op.kind === 'freeze') {
          expect(result.reason).toBeInstanceOf(InsufficientFundsError);
          // Refused only if it could not fit even in the best order of this step.
          expect(p.debit > availableBefore - succeededDebits).toBe(true);
        } else if ('target' in p && p.target) {
          expect(result.reason).toBeInstanceOf(HoldClosedError);
        } else {
          throw result.reason;
        }
        return;
      }
      const value = result.value as { replayed: boolean };
      if (op.kind === 'repeat') {
        expect(value.replayed).toBe(true);
        return;
      }
      expect(value.replayed).toBe(false);
      if (op.kind === 'credit' || op.kind === 'debit') {
        model.available += (p as { input: PostInput }).input.amountMinor;
        model.posted.push((p as { input: PostInput }).input);
      } else if (op.kind === 'hold' || op.kind === 'freeze') {
        const { hold: created } = result.value as { hold: { id: number; amountMinor: bigint; type: string } };
        model.available -= created.amountMinor;
        model.locked += created.amountMinor;
        model.holds.set(created.id, {
          id: created.id,
          amount: created.amountMinor,
          type: created.type,
          status: 'open',
        });
      } else if ('target' in p && p.target) {
        const target = model.holds.get(p.target.id)!;
        closedTargets.set(target.id, (closedTargets.get(target.id) ?? 0) + 1);
        target.status = op.kind === 'capture' ? 'captured' : 'released';
        model.locked -= target.amount;
        if (op.kind !== 'capture') model.available += target.amount;
      }
    });
    // Each hold closed at most once per step; a close nobody competed for must have succeeded.
    for (const count of closedTargets.values()) expect(count).toBe(1);
    planned.forEach((p, i) => {
      if (!('target' in p) || !p.target) return;
      const competitors = planned.filter((q) => 'target' in q && q.target?.id === p.target!.id).length;
      if (competitors === 1) expect(results[i].status).toBe('fulfilled');
    });

    const state = await stateOf(merchantId);
    expect(state.available).toBe(model.available);
    expect(state.locked).toBe(model.locked);
    expect(state.available >= 0n).toBe(true);
    expect(state.locked >= 0n).toBe(true);
    expect(state.entriesSum).toBe(state.available);
    expect(state.openHolds).toBe(state.locked);
    const rows = await db.select().from(holds).where(eq(holds.merchantId, merchantId));
    for (const row of rows) expect(row.status).toBe(model.holds.get(row.id)?.status);
    // Double entry: every journal entry sums to zero, accounts equal their postings, the books balance.
    expect(await booksOutOfBalance(db)).toEqual({
      unbalancedEntries: [],
      unbalancedCurrencies: [],
      driftedAccounts: [],
    });
  }
  const report = await verifyLedger(db);
  expect(report.problems).toEqual([]);
}

describe('property: random concurrent post/hold/capture/release/freeze/unfreeze sequences', () => {
  it('keep every invariant after every step', async () => {
    const seed = Number(process.env.LEDGER_PROPERTY_SEED ?? Date.now() % 2 ** 31);
    console.log(
      `ledger property test (${testDatabaseKind()}): seed ${seed} (replay with LEDGER_PROPERTY_SEED=${seed})`,
    );
    await fc.assert(
      fc.asyncProperty(runArb, async (steps) => runSteps(steps)),
      { seed, numRuns: 25, endOnFailure: true },
    );
  }, 180_000);
});
