import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, transactionWithRetry } from '../../src/modules/ledger/index.ts';
import { createGatewayMerchant } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { statementsSentBy } from '../helpers/statements.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

// A search by number answers its first page with the totals of the page's own rows, read in one statement
// with the session's confirmation (modules/lists list-kit.ts read, keyset.ts listPage). Page 2 of the same
// search reads its totals the other way, from the database's sums statement: both must say the same, for
// a match, a match the other filters exclude, no match, and a number shared by several fund flow entries.

let ctx: TestContext;
let root: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const { merchant, users, channel } = await createGatewayMerchant(db, ctx.config.appKey, {
    roles: ['ROOT'],
  });
  const id = merchant.id;
  const at = sql`now() - g * interval '7 minute'`;
  await db.execute(sql`
    insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                             fee_minor, currency, expires_at, status, created_at)
    select ${id}::bigint, ${channel!.id}::bigint, 'sandbox', 'C' || lpad(g::text, 23, '0'), 'ORDER-' || g,
           1000 + g * 37, 15 + g, 'CNY', ${at}, (array['to_be_paid', 'paid'])[1 + g % 2], ${at}
    from generate_series(1, 30) g`);
  await db.execute(sql`
    insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                         fee_minor, currency, account_type, payee_name, account_no, status, created_at)
    select ${id}::bigint, ${channel!.id}::bigint, 'sandbox-pay', 'P' || lpad(g::text, 23, '0'), 'PAY-' || g,
           'gateway', 1000 + g * 41, 60 + g, 'CNY', 'individual', 'Payee', '6222020200112233',
           (array['pending', 'success'])[1 + g % 2], ${at}
    from generate_series(1, 30) g`);
  await db.execute(sql`
    insert into settlements (settlement_no, merchant_id, channel_id, channel_code, cycle, business_date,
                             order_count, gross_minor, fee_minor, net_minor, currency, created_at)
    select 'S' || lpad(g::text, 20, '0'), ${id}::bigint, ${channel!.id}::bigint,
           (array['sandbox', 'sandbox-auto'])[1 + g % 2], 'T1', date '2026-11-20', 3, 3000 + g, 45, 2955 + g,
           'CNY', ${at}
    from generate_series(1, 30) g`);
  await db.execute(sql`
    insert into recharges (merchant_id, recharge_no, network, deposit_address, amount_minor, currency,
                           screenshot_key, screenshot_type, screenshot_bytes, created_at)
    select ${id}::bigint, 'R' || lpad(g::text, 23, '0'), (array['TRC20', 'ERC20'])[1 + g % 2], 'TAddress',
           1000000 + g, 'USDT', 'recharges/x/' || g || '.png', 'image/png', 1000, ${at}
    from generate_series(1, 30) g`);
  await db.execute(sql`
    update recharges set status = 'approved', received_minor = amount_minor, rate = '1',
                         credited_minor = amount_minor - 7, credited_usd_minor = amount_minor,
                         reviewed_by = 'ops', reviewed_at = now(), review_reason = 'ok'
    where merchant_id = ${id} and recharge_no = ${'R' + '3'.padStart(23, '0')}`);
  await db.execute(sql`
    insert into withdrawals (merchant_id, withdrawal_no, network, address, amount_usdt_minor, fee_usdt_minor,
                             rate, local_currency, amount_local_minor, fee_local_minor, created_at)
    select ${id}::bigint, 'W' || lpad(g::text, 23, '0'), (array['TRC20', 'ERC20'])[1 + g % 2], 'TAddress',
           1000000 + g, 300 + g, '7.1', 'CNY', 710 + g, 21 + g, ${at}
    from generate_series(1, 30) g`);
  // Fund flows as the ledger writes them: one number on money in, then part of it out again.
  const ledger = createLedger();
  for (const [i, [type, amountMinor, refNo]] of (
    [
      ['transfer_in', 90_000n, 'OA-SHARED'],
      ['transfer_out', -25_000n, 'OA-SHARED'],
      ['transfer_in', 7_000n, 'OA-ALONE'],
    ] as const
  ).entries()) {
    await transactionWithRetry(db, (tx) =>
      ledger.post(tx, {
        merchantId: id,
        type,
        amountMinor,
        refType: 'test',
        refId: String(i),
        refNo,
        idempotencyKey: `by-number:${i}`,
      }),
    );
  }
  root = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
});

afterAll(() => ctx.close());

const number = (prefix: string, g: number, width = 23) => `${prefix}${String(g).padStart(width, '0')}`;

const searches: [string, number][] = [
  [`/api/merchant/collections?trade_no=${number('C', 4)}`, 1],
  [`/api/merchant/collections?out_trade_no=ORDER-5`, 1],
  [`/api/merchant/collections?out_trade_no=ORDER-5&status=to_be_paid`, 0],
  [`/api/merchant/collections?trade_no=C-NONE`, 0],
  [`/api/merchant/payouts?trade_no=${number('P', 6)}`, 1],
  [`/api/merchant/payouts?out_trade_no=PAY-7&status=success`, 1],
  [`/api/merchant/settlements?settlement_no=${number('S', 8, 20)}`, 1],
  [`/api/merchant/settlements?settlement_no=${number('S', 8, 20)}&channel=sandbox-auto`, 0],
  [`/api/merchant/recharges?recharge_no=${number('R', 3)}`, 1],
  [`/api/merchant/withdrawals?withdrawal_no=${number('W', 9)}`, 1],
  [`/api/merchant/fund-flows?ref_no=OA-SHARED`, 2],
  [`/api/merchant/fund-flows?ref_no=OA-ALONE&type=transfer_out`, 0],
];

describe('a search by number', () => {
  it.each(searches)('%s: its page and totals, as its page 2 reads them from the sums', async (path, rows) => {
    const first = await root.get(path);
    expect(first.statusCode).toBe(200);
    const page2 = await root.get(`${path}&page=2`);
    expect(page2.statusCode).toBe(200);
    expect(first.json().data).toHaveLength(rows);
    expect(page2.json().data).toEqual([]);
    expect(first.json().meta.total).toBe(rows);
    expect(first.json().meta.sums).toEqual(page2.json().meta.sums);
  });

  it('of fund flows sharing a number adds money in and out as the ledger wrote them', async () => {
    const body = (await root.get('/api/merchant/fund-flows?ref_no=OA-SHARED')).json();
    expect(body.data.map((row: { amount: string }) => row.amount)).toEqual(['-250.00', '900.00']);
    expect(body.meta.sums).toEqual({ money_in: '900.00', money_out: '250.00' });
  });

  it('is logged out on the very next search once its session row is gone, and answers no data', async () => {
    const path = `/api/merchant/collections?trade_no=${number('C', 4)}`;
    const email = (await root.get('/api/merchant/user')).json().data.email as string;
    // Twice: the process remembers the session, and confirms it in the page's statement from then on.
    for (let i = 0; i < 2; i++) expect((await root.get(path)).statusCode).toBe(200);
    await ctx.database.db.execute(
      sql`delete from sessions where user_id = (select id from users where email = ${email})`,
    );
    const after = await root.get(path);
    expect(after.statusCode).toBe(401);
    expect(after.body).not.toContain('"data"');
    root = await loginAs(ctx.app, email, TEST_PASSWORD);
    expect((await root.get(path)).statusCode).toBe(200);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'sends one statement, its page and the session confirmed together',
    async () => {
      const path = `/api/merchant/payouts?trade_no=${number('P', 6)}`;
      // Twice first: the session is remembered by this process from the second read on.
      for (let i = 0; i < 2; i++) expect((await root.get(path)).statusCode).toBe(200);
      const reads = await statementsSentBy(async () => expect((await root.get(path)).statusCode).toBe(200));
      expect(reads).toEqual([expect.stringContaining('"sessions"')]);
      expect(reads[0]).toContain('"payouts"');
    },
  );
});
