import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { channels } from '../../src/db/schema/index.ts';
import { seedDemo } from '../../src/modules/demo/seed-demo.ts';
import { createLedger, trialBalance, verifyLedger } from '../../src/modules/ledger/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  type GatewayMerchant,
  gatewayCall,
  openPayoutChannel,
  testModeOf,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { folderUpTo, journal, LATER_COLUMNS, migrationIndex } from '../helpers/migrations.ts';
import { createTestApp, createTestDatabase, type TestContext } from '../helpers/test-app.ts';

// Migration 0032 (issue 35 item 2): a database populated before live and test mode, whose sandbox history
// sits on the merchants' live rows, has it moved to their test twins. Populated here as the earlier
// versions did it: sandbox channels, a key and orders on the one row (the factories' live row), paid,
// settled, paid out, refused and still pending, next to an operator transfer that is live by nature; one
// merchant's twin already has a channel of the same code; and the demo of today's code beside them, whose
// history is already test mode's. Then the migration, and the proof: balances, entries and fund flows,
// summed over both rows, are what they were; each mode holds what it should; every invariant holds.

const BEFORE_0032 = migrationIndex('0032_');
let ctx: TestContext;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const merchants: GatewayMerchant[] = [];

type Row = Record<string, unknown>;
const db = () => ctx.database.db;

/** A merchant's history as before modes: 3 collections (2 paid and settled), 3 payouts (paid, failed, pending). */
async function sandboxHistory(m: GatewayMerchant, tag: string) {
  await openPayoutChannel(db(), m.merchant.id);
  await fundMerchant(db(), m.merchant.id, 100_000n);
  for (const [i, paid] of [true, true, false].entries()) {
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: `C-${tag}-${i}`, amount: `${100 + i}.00` },
      now: () => clock,
    });
    expect(made.statusCode, made.body).toBe(201);
    if (paid) await ctx.app.services.collections.finish(made.json().data.trade_no, 'paid');
  }
  for (const [i, end] of (['success', 'failed', null] as const).entries()) {
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { out_trade_no: `P-${tag}-${i}`, amount: `${10 + i}.00`, ...CN_PAYEE },
    });
    expect(made.statusCode, made.body).toBe(201);
    if (end) {
      const tradeNo = made.json().data.trade_no;
      await ctx.app.services.payouts.transition(tradeNo, 'processing');
      await ctx.app.services.payouts.transition(tradeNo, end, end === 'failed' ? 'declined' : null);
    }
  }
}

/** What the ledger holds of a merchant's rows (`ids`), summed over them. */
async function booksOf(ids: number[]) {
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [books] = await queryRows<{ available: string; locked: string; entries: string }>(
    db(),
    sql`select
      (select coalesce(sum(balance_minor), 0)::text from ledger_accounts
        where merchant_id in (${list}) and kind = 'merchant_available') as available,
      (select coalesce(sum(balance_minor), 0)::text from ledger_accounts
        where merchant_id in (${list}) and kind = 'merchant_locked') as locked,
      (select count(*)::text from journal_entries where merchant_id in (${list})) as entries`,
  );
  const flows = await queryRows<Row>(
    db(),
    sql`select id::text, type, amount_minor::text, ref_type, ref_id, ref_no, hold_id::text, entry_id::text,
               created_at::text
        from fund_flows where merchant_id in (${list}) order by id`,
  );
  return { ...books, flows };
}

const rowsOf = async (m: GatewayMerchant) => {
  const [twin] = await queryRows<{ id: number }>(
    db(),
    sql`select id::int as id from merchants where live_merchant_id = ${m.merchant.id}`,
  );
  return { live: m.merchant.id, test: twin.id };
};

const demoTwin = async () => {
  const [row] = await queryRows<{ id: number }>(
    db(),
    sql`select id::int as id from merchants where no = 'M100001' and mode = 'test'`,
  );
  return row.id;
};

let before: Awaited<ReturnType<typeof booksOf>>[];
let demoBefore: Awaited<ReturnType<typeof booksOf>>;
let platformBefore: Row[];

beforeAll(async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-migrations-'));
  folderUpTo(folder, BEFORE_0032);
  const database = await createTestDatabase({ migrationsFolder: folder });
  await database.db.execute(LATER_COLUMNS.lend);
  ctx = await createTestApp({}, { now: () => clock, database });
  // Today's demo without its live channels and refunds: their tables come with 0033 and 0036.
  expect(
    await seedDemo(db(), { appKey: ctx.config.appKey, now: clock, liveChannels: false, refunds: false }),
  ).toBe(true);

  for (const tag of ['OLD', 'TWIN']) {
    merchants.push(
      await createGatewayMerchant(db(), ctx.config.appKey, { channel: { settlementCycle: 'T0' } }),
    );
    await sandboxHistory(merchants.at(-1)!, tag);
  }
  // The second merchant's twin got a test channel of the same code after 0028 (ops channel:open --mode test).
  await testModeOf(db(), ctx.config.appKey, merchants[1]);
  clock = new Date(clock.getTime() + 1000);
  expect((await ctx.app.services.settlements.run()).posted).toHaveLength(2);

  before = [];
  for (const m of merchants) {
    const rows = await rowsOf(m);
    before.push(await booksOf([rows.live, rows.test]));
  }
  demoBefore = await booksOf([await demoTwin()]);
  platformBefore = await queryRows<Row>(
    db(),
    sql`select currency, sum(balance_minor)::text as total from ledger_accounts where merchant_id is null
        group by currency order by currency`,
  );

  await database.db.execute(LATER_COLUMNS.giveBack);
  folderUpTo(folder, journal.entries.length);
  await database.migrate();
}, 120_000);
afterAll(() => ctx.close());

describe('migration 0032: sandbox history becomes test mode’s', () => {
  it('keeps every balance, entry and fund flow, summed over a merchant’s two rows', async () => {
    for (const [i, m] of merchants.entries()) {
      const rows = await rowsOf(m);
      const after = await booksOf([rows.live, rows.test]);
      expect(after).toEqual(before[i]);
      // 100,000.00 moved in, 3 settled-or-not collections, 3 payouts: something of each kind was there.
      expect(before[i].flows.length).toBeGreaterThan(5);
    }
    // The platform's accounts summed per currency (both modes) are unchanged too.
    expect(
      await queryRows<Row>(
        db(),
        sql`select currency, sum(balance_minor)::text as total from ledger_accounts where merchant_id is null
            group by currency order by currency`,
      ),
    ).toEqual(platformBefore);
  });

  it('live keeps the operator’s transfer; test has the orders, settlements, payouts and their money', async () => {
    for (const m of merchants) {
      const rows = await rowsOf(m);
      const live = await booksOf([rows.live]);
      const test = await booksOf([rows.test]);
      expect(live.flows.map((f) => f.type)).toEqual(['transfer_in']);
      expect(live).toMatchObject({ available: '100000', locked: '0' });
      expect(new Set(test.flows.map((f) => f.type))).toEqual(
        new Set(['collection_settlement', 'payout_deduction', 'payout_refund']),
      );
      // 201.00 settled less 1.5% (3.02), the paid payout (10.00 + fee), the pending one still held.
      expect(Number(test.available)).toBeLessThan(20_100);
      expect(Number(test.locked)).toBeGreaterThan(1_200);
      const console = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
      for (const [list, count] of [
        ['collections', 3],
        ['payouts', 3],
        ['settlements', 1],
      ] as const) {
        const inTest = (await console.get(`/api/merchant/${list}`, { 'x-mode': 'test' })).json();
        const inLive = (await console.get(`/api/merchant/${list}`)).json();
        expect([list, inTest.meta.total, inLive.meta.total]).toEqual([list, count, 0]);
      }
    }
  });

  it('the sandbox channels are test mode’s: the old live key gets 422, a twin’s same-code channel took the orders', async () => {
    const [old, twin] = merchants;
    const refused = await gatewayCall(ctx.app, old, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'C-AFTER', amount: '5.00' },
      now: () => clock,
    });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'channel_unavailable']);
    for (const m of [old, twin]) {
      const rows = await rowsOf(m);
      const live = await db().select().from(channels).where(eq(channels.merchantId, rows.live));
      expect(live.filter((c) => c.provider === 'sandbox')).toEqual([]);
    }
    // The twin had a collection channel of the same code: one channel of that code, holding the orders.
    const rows = await rowsOf(twin);
    const testChannels = await db().select().from(channels).where(eq(channels.merchantId, rows.test));
    const collection = testChannels.filter((c) => c.kind === 'collection');
    expect(collection).toHaveLength(1);
    const [{ count }] = await queryRows<{ count: string }>(
      db(),
      sql`select count(*)::text as count from collections where channel_id = ${collection[0].id}`,
    );
    expect(count).toBe('3');
  });

  it('every ledger invariant holds, the books balance per mode, and the demo’s test history did not move', async () => {
    const report = await verifyLedger(db());
    expect(report.problems).toEqual([]);
    const books = await trialBalance(db());
    expect(books.balanced).toBe(true);
    const liveCny = books.currencies.find((c) => c.mode === 'live' && c.currency === 'CNY')!;
    // The live channel and fee accounts the sandbox used to post to hold nothing now; test mode's hold it.
    const sandboxKinds = (c: typeof liveCny) =>
      c.accounts.filter((a) => a.kind === 'channel_clearing' || a.kind === 'fee_revenue');
    expect(sandboxKinds(liveCny).length).toBeGreaterThan(0);
    expect(sandboxKinds(liveCny).every((a) => a.balance === '0.00')).toBe(true);
    const testCny = books.currencies.find((c) => c.mode === 'test' && c.currency === 'CNY')!;
    expect(sandboxKinds(testCny).some((a) => a.balance !== '0.00')).toBe(true);
    expect(await booksOf([await demoTwin()])).toEqual(demoBefore);
  });
});

describe('migration 0032 on a merchant that spent sandbox money in live mode', () => {
  it('stops, names the merchant and changes nothing: an operator decides who bears it', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-migrations-'));
    folderUpTo(folder, BEFORE_0032);
    const database = await createTestDatabase({ migrationsFolder: folder });
    await database.db.execute(LATER_COLUMNS.lend);
    const spent = await createTestApp({}, { now: () => clock, database });
    try {
      const m = await createGatewayMerchant(database.db, spent.config.appKey, {
        channel: { settlementCycle: 'T0' },
      });
      const made = await gatewayCall(spent.app, m, 'POST', '/gateway/v1/collections', {
        body: { out_trade_no: 'C-SPENT', amount: '100.00' },
        now: () => clock,
      });
      await spent.app.services.collections.finish(made.json().data.trade_no, 'paid');
      clock = new Date(clock.getTime() + 1000);
      expect((await spent.app.services.settlements.run()).posted).toHaveLength(1);
      // 98.50 settled; an operator takes 50.00 of it out: live money that came from the sandbox.
      await database.db.transaction((tx) =>
        createLedger().post(tx, {
          merchantId: m.merchant.id,
          type: 'transfer_out',
          amountMinor: -5_000n,
          refType: 'operator_action',
          refId: '1',
          idempotencyKey: 'test:spent-sandbox-money',
        }),
      );
      const before = await queryRows<Row>(
        database.db,
        sql`select merchant_id::text, count(*)::text from fund_flows group by 1 order by 1`,
      );

      await database.db.execute(LATER_COLUMNS.giveBack);
      folderUpTo(folder, journal.entries.length);
      // The driver wraps the database's message in "Failed query: ..." (its cause).
      const failure = (await database.migrate().then(
        () => null,
        (error: unknown) => error,
      )) as { message: string; cause?: { message: string } } | null;
      expect(failure?.cause?.message ?? failure?.message).toMatch(
        new RegExp(
          `^Merchant ${m.merchant.no} spent sandbox money in live mode: .* -5000 minor units of CNY`,
        ),
      );
      expect(
        await queryRows<Row>(
          database.db,
          sql`select merchant_id::text, count(*)::text from fund_flows group by 1 order by 1`,
        ),
      ).toEqual(before);
    } finally {
      await spent.close();
    }
  });
});
