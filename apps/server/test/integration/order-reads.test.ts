import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { statementsSentBy } from '../helpers/statements.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

// A collection read by our number (the gateway's lookups, and every gateway refund before its one
// statement) goes through lists' orderOfMerchantTogether: reads that arrive together share one
// statement. Each must still answer its own order, never another merchant's, and none for a number that
// does not exist, whatever else was read beside it.

let ctx: TestContext;
let a: GatewayMerchant;
let b: GatewayMerchant;

const tradeNo = (m: GatewayMerchant, n: number) => `C${String(m.merchant.id).padStart(8, '0')}${n}`;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  a = await createGatewayMerchant(db, ctx.config.appKey);
  b = await createGatewayMerchant(db, ctx.config.appKey);
  for (const m of [a, b]) {
    await db.execute(sql`
      insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                               fee_minor, currency, expires_at, status, created_at)
      select ${m.merchant.id}::bigint, ${m.channel!.id}::bigint, 'sandbox',
             'C' || lpad(${m.merchant.id}::text, 8, '0') || g, 'ORDER-' || g, 1000 + g, 15, 'CNY',
             now() + interval '30 minutes', 'to_be_paid', now()
        from generate_series(1, 20) g`);
  }
}, 120_000);
afterAll(async () => ctx?.close());

/** What findForMerchant answers: the order's merchant and amount, or the 404's code. */
const read = (merchantId: number, number: string) =>
  ctx.app.services.collections.findForMerchant(merchantId, { tradeNo: number }).then(
    (row) => ({ merchantId: row.merchantId, tradeNo: row.tradeNo, amount: Number(row.amountMinor) }),
    (error: { status?: number }) => ({ status: error.status }),
  );

describe('collections read by our number together', () => {
  it('answers each call its own order, none of another merchant and none that does not exist', async () => {
    const calls = [
      ...Array.from({ length: 20 }, (_, i) => ({ m: a, no: tradeNo(a, i + 1), own: true })),
      // b's orders asked for as a's: another merchant's order reads as none.
      ...Array.from({ length: 5 }, (_, i) => ({ m: a, no: tradeNo(b, i + 1), own: false })),
      ...Array.from({ length: 5 }, (_, i) => ({ m: b, no: tradeNo(b, i + 1), own: true })),
      { m: b, no: `${tradeNo(b, 99)}`, own: false },
      // The same order twice in one batch.
      { m: a, no: tradeNo(a, 3), own: true },
    ];
    const answers = await Promise.all(calls.map((call) => read(call.m.merchant.id, call.no)));
    calls.forEach((call, i) => {
      const n = Number(call.no.slice(9));
      expect(answers[i], call.no).toEqual(
        call.own ? { merchantId: call.m.merchant.id, tradeNo: call.no, amount: 1000 + n } : { status: 404 },
      );
    });
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'reads that arrive together share statements (PostgreSQL: fewer statements than reads)',
    async () => {
      const sent = await statementsSentBy(() =>
        Promise.all(Array.from({ length: 20 }, (_, i) => read(a.merchant.id, tradeNo(a, i + 1)))),
      );
      const reads = sent.filter((text) => /from "collections"/.test(text));
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.length).toBeLessThan(20);
    },
  );
});
