import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import {
  createLedger,
  transactionWithRetry,
  trialBalance,
  verifyLedger,
} from '../../src/modules/ledger/index.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { folderUpTo, journal, MIGRATIONS, migrationIndex } from '../helpers/migrations.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

// The double-entry migration (0003) turns a populated database of the single-entry schema (balances,
// holds, fund flows with their history) into the new one without changing any merchant's balance or
// history; and every migration from now on applies to a populated database.

/** The last migration of the single-entry ledger. */
const SINGLE_ENTRY = migrationIndex('0002_');

// ---- The old ledger's writes, as its repository made them (conditional update, entry, hold, rollup).

type OldOp =
  | { kind: 'post'; type: string; amount: bigint }
  | { kind: 'hold'; type: 'payout_deduction' | 'withdrawal' | 'funds_frozen'; amount: bigint; name: string }
  | { kind: 'capture' | 'release'; name: string };

const RELEASE_TYPE: Record<string, string> = {
  payout_deduction: 'payout_refund',
  withdrawal: 'withdrawal_rejected',
  funds_frozen: 'funds_unfrozen',
};

const HISTORY: OldOp[] = [
  { kind: 'post', type: 'transfer_in', amount: 100_000n },
  { kind: 'hold', type: 'payout_deduction', amount: 20_000n, name: 'open-payout' },
  { kind: 'hold', type: 'withdrawal', amount: 5_000n, name: 'paid-withdrawal' },
  { kind: 'capture', name: 'paid-withdrawal' },
  { kind: 'hold', type: 'funds_frozen', amount: 3_000n, name: 'lifted-freeze' },
  { kind: 'release', name: 'lifted-freeze' },
  { kind: 'post', type: 'collection_settlement', amount: 50_000n },
  { kind: 'post', type: 'recharge', amount: 30_000n },
  { kind: 'post', type: 'transfer_out', amount: -10_000n },
  { kind: 'hold', type: 'payout_deduction', amount: 8_000n, name: 'paid-payout' },
  { kind: 'capture', name: 'paid-payout' },
  { kind: 'post', type: 'payout_refund', amount: 8_000n },
  { kind: 'hold', type: 'payout_deduction', amount: 4_000n, name: 'failed-payout' },
  { kind: 'release', name: 'failed-payout' },
  { kind: 'hold', type: 'funds_frozen', amount: 1_000n, name: 'open-freeze' },
];

async function fillSingleEntry(database: TestDatabase, no: string, currency: string, start: Date) {
  const db = database.db;
  const [merchant] = await queryRows<{ id: unknown }>(
    db,
    sql`insert into merchants (no, name, currency) values (${no}, ${`Old ${no}`}, ${currency}) returning id`,
  );
  const id = Number(merchant.id);
  let available = 0n;
  let locked = 0n;
  const holdIds = new Map<string, { id: number; amount: bigint; type: string }>();
  let step = 0;
  const entry = async (type: string, amount: bigint, key: string, holdId: number | null) => {
    available += amount;
    const at = new Date(start.getTime() + step++ * 97_000);
    await db.execute(sql`
      insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                              hold_id, note, idempotency_key, created_at)
      values (${id}, ${type}, ${amount}, ${available}, 'legacy', ${key}, ${`R-${key}`}, ${holdId},
              ${`note ${key}`}, ${key}, ${at.toISOString()})`);
    await db.execute(sql`
      insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
      values (${id}, ${type}, date_bin('1 hour', ${at.toISOString()}::timestamptz, timestamptz '2000-01-01'),
              ${amount > 0n ? amount : 0n}, ${amount < 0n ? -amount : 0n}, 1)
      on conflict (merchant_id, type, hour) do update set
        in_minor = fund_flow_hourly.in_minor + excluded.in_minor,
        out_minor = fund_flow_hourly.out_minor + excluded.out_minor,
        entries = fund_flow_hourly.entries + excluded.entries`);
    return at;
  };
  for (const [index, op] of HISTORY.entries()) {
    const key = `old:${no}:${index}`;
    if (op.kind === 'post') {
      await entry(op.type, op.amount, key, null);
    } else if (op.kind === 'hold') {
      const [hold] = await queryRows<{ id: unknown }>(
        db,
        sql`insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note,
                               idempotency_key, created_at)
            values (${id}, ${op.amount}, ${op.type}, 'open', 'legacy', ${key}, ${`R-${key}`}, ${`note ${key}`},
                    ${key}, ${new Date(start.getTime() + step * 97_000).toISOString()})
            returning id`,
      );
      holdIds.set(op.name, { id: Number(hold.id), amount: op.amount, type: op.type });
      locked += op.amount;
      await entry(op.type, -op.amount, key, Number(hold.id));
    } else {
      const hold = holdIds.get(op.name)!;
      locked -= hold.amount;
      await db.execute(sql`update holds set status = ${op.kind === 'capture' ? 'captured' : 'released'},
                              close_key = ${key}, closed_at = now() where id = ${hold.id}`);
      if (op.kind === 'release') await entry(RELEASE_TYPE[hold.type], hold.amount, key, hold.id);
    }
  }
  await db.execute(sql`insert into balances (merchant_id, available_minor, locked_minor)
                       values (${id}, ${available}, ${locked})`);
  return { id, no, available, locked, holds: holdIds };
}

const history = (database: TestDatabase) =>
  queryRows<Record<string, unknown>>(
    database.db,
    sql`select id::text, merchant_id::text, type, amount_minor::text, available_after_minor::text, ref_type,
               ref_id, ref_no, hold_id::text, note, created_at::text
        from fund_flows order by id`,
  );

describe('migrating a populated single-entry ledger to double entry', () => {
  let database: TestDatabase;
  let folder: string;
  let merchants: Awaited<ReturnType<typeof fillSingleEntry>>[];
  let before: Record<string, unknown>[];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-migrations-'));
    folderUpTo(folder, SINGLE_ENTRY + 1);
    database = await createTestDatabase({ migrationsFolder: folder });
    const start = new Date('2026-10-01T08:00:00Z');
    merchants = [
      await fillSingleEntry(database, 'MOLD1', 'CNY', start),
      await fillSingleEntry(database, 'MOLD2', 'VND', new Date(start.getTime() + 3_600_000)),
      // A merchant that never had money: no balance row, no entries.
      { id: 0, no: 'MOLD3', available: 0n, locked: 0n, holds: new Map() },
    ];
    await database.db.execute(
      sql`insert into merchants (no, name, currency) values ('MOLD3', 'Empty', 'BRL')`,
    );
    before = await history(database);
    // Each later migration, one at a time, on the populated database.
    for (let count = SINGLE_ENTRY + 2; count <= journal.entries.length; count++) {
      folderUpTo(folder, count);
      await database.migrate();
    }
  });
  afterAll(() => database.drop());

  it('keeps every fund flow row, every balance and every hold', async () => {
    expect(before.length).toBe(2 * 13);
    expect(await history(database)).toEqual(before);
    for (const m of merchants.slice(0, 2)) {
      expect(await balanceRow(database.db, m.id)).toEqual({
        availableMinor: m.available,
        lockedMinor: m.locked,
      });
    }
    expect(merchants[0].available).toBe(144_000n);
    expect(merchants[0].locked).toBe(21_000n);
  });

  it('passes ledger:verify, and the trial balance is zero in each currency', async () => {
    const report = await verifyLedger(database.db);
    expect(report.problems).toEqual([]);
    // Each merchant is two rows, its live one and its test twin (DESIGN 12), each checked.
    expect(report.merchants_checked).toBe(6);
    // 13 fund flows and 2 captures per merchant.
    expect(report.entries_checked).toBe(2 * 15);
    const books = await trialBalance(database.db);
    expect(books.balanced).toBe(true);
    const cny = books.currencies.find((c) => c.currency === 'CNY')!;
    expect(Object.fromEntries(cny.accounts.map((a) => [a.code, a.balance]))).toEqual({
      // settlement -500 and refund received -80, against the 80 the paid payout sent.
      'channel_clearing:legacy:CNY': '-500.00',
      'operator_adjustments:CNY': '-900.00',
      'usdt_deposits:CNY': '-300.00',
      'withdrawals_payable:CNY': '50.00',
    });
    expect(cny.merchants).toEqual({ available: '1440.00', locked: '210.00', count: 1 });
  });

  it('the old idempotency keys still replay, and the ledger goes on where the history stopped', async () => {
    const ledger = createLedger();
    const [cny] = merchants;
    const replay = await transactionWithRetry(database.db, (tx) =>
      ledger.post(tx, {
        merchantId: cny.id,
        type: 'transfer_in',
        amountMinor: 100_000n,
        refType: 'legacy',
        refId: 'x',
        idempotencyKey: `old:${cny.no}:0`,
      }),
    );
    expect(replay.replayed).toBe(true);
    expect(replay.entry.id).toBe(Number(before[0].id));

    const open = cny.holds.get('open-payout')!;
    const released = await transactionWithRetry(database.db, (tx) =>
      ledger.release(tx, { merchantId: cny.id, holdId: open.id, idempotencyKey: 'after-migration:release' }),
    );
    expect(released.entry).toMatchObject({
      type: 'payout_refund',
      amountMinor: 20_000n,
      availableAfterMinor: 164_000n,
    });
    expect(released.entry.entryId).toBeGreaterThan(2 * 15);
    const freeze = cny.holds.get('open-freeze')!;
    await expect(
      transactionWithRetry(database.db, (tx) =>
        ledger.capture(tx, {
          merchantId: cny.id,
          holdId: freeze.id,
          idempotencyKey: 'after-migration:seize',
        }),
      ),
    ).rejects.toThrow(/only ever released/);
    const report = await verifyLedger(database.db);
    expect(report.problems).toEqual([]);
    expect(await balanceRow(database.db, cny.id)).toEqual({ availableMinor: 164_000n, lockedMinor: 1_000n });
  });
});

// ---- The rule for every migration after the single-entry ledger: it must apply to a populated database.

/** Statements that cannot apply to a table that has rows: a NOT NULL column added without a default. */
export function unsafeOnPopulated(sqlText: string): string[] {
  return sqlText
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => /\bADD COLUMN\b[^;]*\bNOT NULL\b/i.test(statement))
    .filter((statement) => !/\bDEFAULT\b/i.test(statement) && !/\bGENERATED\b/i.test(statement));
}

describe('migrations apply to a populated database', () => {
  it('the rule catches the NOT NULL column 0002 added without a default', () => {
    const old = readFileSync(path.join(MIGRATIONS, `${journal.entries[SINGLE_ENTRY].tag}.sql`), 'utf8');
    expect(unsafeOnPopulated(old)).toEqual(['ALTER TABLE "holds" ADD COLUMN "type" text NOT NULL;']);
  });

  it('no migration after it adds a NOT NULL column without a default (add it nullable, fill it, then SET NOT NULL)', () => {
    const later = readdirSync(MIGRATIONS)
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .filter((file) => file > `${journal.entries[SINGLE_ENTRY].tag}.sql`);
    expect(later.length).toBeGreaterThan(0);
    for (const file of later) {
      expect({ file, unsafe: unsafeOnPopulated(readFileSync(path.join(MIGRATIONS, file), 'utf8')) }).toEqual({
        file,
        unsafe: [],
      });
    }
  });
});
