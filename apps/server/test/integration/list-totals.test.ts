import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { settlementsList } from '../../src/modules/collections/index.ts';
import { topUpsList } from '../../src/modules/top-ups/index.ts';
import { withdrawalsList } from '../../src/modules/withdrawals/index.ts';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// DESIGN 8: a list's sums come from rollups, never a scan of the matching rows. list_hourly is kept by
// triggers on top-ups, withdrawals and settlements through every insert, change and delete; whatever the
// filter (status, network or channel, any time range cutting hours anywhere, a number), the sums it gives
// equal those of the rows themselves.

let ctx: TestContext;
let m: GatewayMerchant;
const START = Date.parse('2026-11-20T00:00:00Z');
const SPAN_MS = 3 * 24 * 3_600_000;
const at = (prime: number) =>
  sql`${new Date(START).toISOString()}::timestamptz + ((g::bigint * ${prime}) % ${SPAN_MS / 1000}) * interval '1 second'`;

beforeAll(async () => {
  ctx = await createTestApp();
  m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
  const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
  const db = ctx.database.db;
  // 300 of each over three days and two merchants; then some move on as their life cycles do, and a few
  // settlements change or go.
  for (const merchant of [m, other]) {
    const id = merchant.merchant.id;
    await db.execute(sql`
      insert into recharges (merchant_id, recharge_no, network, deposit_address, amount_minor, currency,
                             screenshot_key, screenshot_type, screenshot_bytes, created_at)
      select ${id}::bigint, 'R' || ${id}::text || lpad(g::text, 8, '0'),
             (array['TRC20', 'ERC20'])[1 + g % 2], 'T-address', 100 + (g * 7919) % 100000, 'USDT',
             'shots/' || g, 'image/png', 1000, ${at(104729)}
      from generate_series(1, 300) g`);
    await db.execute(sql`
      insert into withdrawals (merchant_id, withdrawal_no, network, address, amount_usdt_minor, fee_usdt_minor,
                               rate, local_currency, amount_local_minor, fee_local_minor, created_at)
      select ${id}::bigint, 'W' || ${id}::text || lpad(g::text, 8, '0'), (array['TRC20', 'ERC20'])[1 + g % 2],
             'T-address', 100 + (g * 7919) % 100000, g % 300, '7.1', 'CNY', 700 + (g * 31) % 90000, g % 2000,
             ${at(15485863)}
      from generate_series(1, 300) g`);
    await db.execute(sql`
      insert into settlements (settlement_no, merchant_id, channel_id, channel_code, cycle, business_date,
                               order_count, gross_minor, fee_minor, net_minor, currency, created_at)
      select 'S' || ${id}::text || lpad(g::text, 8, '0'), ${id}::bigint, ${merchant.channel!.id}::bigint,
             (array['sandbox', 'sandbox-auto'])[1 + g % 2], 'T1', date '2026-11-20', 1 + g % 9,
             10000 + g * 13, g % 97, 10000 + g * 13 - g % 97, 'CNY', ${at(32452843)}
      from generate_series(1, 300) g`);
  }
  await db.execute(sql`
    update recharges set status = 'approved', received_minor = amount_minor, rate = '1', credited_minor = amount_minor - 7,
                         credited_usd_minor = amount_minor, reviewed_by = 'ops', reviewed_at = now(), review_reason = 'ok'
    where id % 3 = 0`);
  await db.execute(sql`
    update recharges set status = 'rejected', reviewed_by = 'ops', reviewed_at = now(), review_reason = 'no'
    where id % 5 = 1`);
  await db.execute(sql`update withdrawals set status = 'approved' where id % 2 = 0`);
  await db.execute(sql`
    update withdrawals set status = 'paid', tx_hash = 'h' || id, paid_at = now() where id % 4 = 0`);
  await db.execute(sql`
    update withdrawals set status = 'rejected', reject_reason = 'no', rejected_at = now()
    where id % 7 = 1 and status = 'pending_review'`);
  await db.execute(sql`
    update settlements set fee_minor = fee_minor + 1, net_minor = net_minor - 1 where id % 3 = 0`);
  await db.execute(sql`update settlements set channel_code = 'sandbox' where id % 10 = 5`);
  await db.execute(sql`delete from settlements where id % 11 = 0`);
});
afterAll(() => ctx?.close());

type Filter = { from?: Date; to?: Date; status?: string; facet?: string; number?: string };

const scan = async (table: string, facet: string, number: string, sums: string[], f: Filter) => {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select count(*)::int as count, ${sql.join(
      sums.map((s, i) => sql`coalesce(sum(${sql.raw(s)}), 0)::text as ${sql.identifier(`s${i}`)}`),
      sql`, `,
    )}
        from ${sql.identifier(table)}
        where merchant_id = ${m.merchant.id}
          and (${f.status ?? null}::text is null or status = ${f.status ?? null})
          and (${f.facet ?? null}::text is null or ${sql.identifier(facet)} = ${f.facet ?? null})
          and (${f.number ?? null}::text is null or ${sql.identifier(number)} = ${f.number ?? null})
          and (${f.from?.toISOString() ?? null}::timestamptz is null or created_at >= ${f.from?.toISOString() ?? null}::timestamptz)
          and (${f.to?.toISOString() ?? null}::timestamptz is null or created_at < ${f.to?.toISOString() ?? null}::timestamptz)`,
  );
  return [Number(row.count), ...sums.map((_, i) => BigInt(String(row[`s${i}`])))];
};

/** A filter as the lists make them: maybe a status, a facet, a range cut at any second, rarely a number. */
const filters = (statuses: string[], facets: string[], prefix: string, statusFilter = true) =>
  fc
    .record({
      status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
      facet: fc.option(fc.constantFrom(...facets), { nil: undefined }),
      from: fc.option(fc.integer({ min: -3600, max: SPAN_MS / 1000 + 3600 }), { nil: undefined }),
      length: fc.option(fc.integer({ min: 0, max: SPAN_MS / 1000 }), { nil: undefined }),
      row: fc.option(fc.integer({ min: 1, max: 320 }), { nil: undefined }),
    })
    .map(({ status, facet, from, length, row }): Filter => ({
      ...(status && statusFilter ? { status } : {}),
      ...(facet ? { facet } : {}),
      ...(from !== undefined ? { from: new Date(START + from * 1000) } : {}),
      ...(length !== undefined ? { to: new Date(START + ((from ?? 0) + length) * 1000) } : {}),
      ...(row !== undefined && row % 5 === 0
        ? { number: `${prefix}${m.merchant.id}${String(row).padStart(8, '0')}` }
        : {}),
    }));

const range = (f: Filter) => ({ ...(f.from ? { from: f.from } : {}), ...(f.to ? { to: f.to } : {}) });

/** For any filter `filter` makes, the list's totals (in `scan`'s order) equal the table's own sums. */
const sumsAgree = (
  filter: fc.Arbitrary<Filter>,
  totals: (f: Filter) => Promise<unknown[]>,
  ownSums: (f: Filter) => Promise<unknown[]>,
) =>
  fc.assert(
    fc.asyncProperty(filter, async (f) => {
      expect(await totals(f)).toEqual(await ownSums(f));
    }),
    { numRuns: 50 },
  );

describe('top-up, withdrawal and settlement sums from list_hourly', () => {
  it('equal the top-ups’ own sums for any filter', async () => {
    await sumsAgree(
      filters(['pending_review', 'approved', 'rejected'], ['TRC20', 'ERC20'], 'R'),
      async (f) => {
        const t = await topUpsList.totals(ctx.database.db, {
          merchantId: m.merchant.id,
          status: f.status as never,
          network: f.facet as never,
          topUpNo: f.number,
          ...range(f),
        });
        return [t.count, t.amountMinor, t.creditedMinor];
      },
      (f) => scan('recharges', 'network', 'recharge_no', ['amount_minor', 'credited_minor'], f),
    );
  });

  it('equal the withdrawals’ own sums for any filter', async () => {
    await sumsAgree(
      filters(['pending_review', 'approved', 'paid', 'rejected'], ['TRC20', 'ERC20'], 'W'),
      async (f) => {
        const t = await withdrawalsList.totals(ctx.database.db, {
          merchantId: m.merchant.id,
          status: f.status as never,
          network: f.facet as never,
          withdrawalNo: f.number,
          ...range(f),
        });
        return [t.count, t.amountUsdtMinor, t.feeUsdtMinor, t.localTotalMinor];
      },
      (f) =>
        scan(
          'withdrawals',
          'network',
          'withdrawal_no',
          ['amount_usdt_minor', 'fee_usdt_minor', 'amount_local_minor + fee_local_minor'],
          f,
        ),
    );
  });

  it('equal the settlements’ own sums for any filter (by channel; changed and deleted batches included)', async () => {
    await sumsAgree(
      filters(['pending_settlement'], ['sandbox', 'sandbox-auto'], 'S', false),
      async (f) => {
        const t = await settlementsList.totals(ctx.database.db, {
          merchantId: m.merchant.id,
          channel: f.facet,
          settlementNo: f.number,
          ...range(f),
        });
        return [t.count, t.grossMinor, t.feeMinor, t.netMinor];
      },
      (f) =>
        scan('settlements', 'channel_code', 'settlement_no', ['gross_minor', 'fee_minor', 'net_minor'], f),
    );
  });

  it('read list_daily and list_hourly, not the rows, for a filter without a number', async () => {
    const { db } = ctx.database;
    const DAY = 24 * 3_600_000;
    const all = { merchantId: m.merchant.id };
    // Whole days from list_daily, the whole hours before the first one from list_hourly, the rest rows.
    const edges = {
      merchantId: m.merchant.id,
      from: new Date(START + 90 * 60_000),
      to: new Date(START + 2 * DAY + 30 * 60_000),
    };
    const before = [await topUpsList.totals(db, all), await topUpsList.totals(db, edges)];
    expect(before[0].count).toBe(300);
    // Emptying the rollups (test only) leaves what they cover at zero: the sums are theirs.
    await db.execute(
      sql`update list_daily set rows = 0, a = 0, b = 0 where merchant_id = ${m.merchant.id} and list = 'recharge'`,
    );
    expect((await topUpsList.totals(db, all)).count).toBe(0);
    const hoursAndEdges = (await topUpsList.totals(db, edges)).count;
    expect(hoursAndEdges).toBeGreaterThan(0);
    expect(hoursAndEdges).toBeLessThan(before[1].count);
    await db.execute(
      sql`update list_hourly set rows = 0, a = 0, b = 0 where merchant_id = ${m.merchant.id} and list = 'recharge'`,
    );
    expect((await topUpsList.totals(db, edges)).count).toBeLessThan(hoursAndEdges);
    // Restored from the rows, as the migrations fill them.
    for (const [table, bucket, unit] of [
      ['list_hourly', 'hour', '1 hour'],
      ['list_daily', 'day', '1 day'],
    ] as const) {
      await db.execute(sql`
        update ${sql.identifier(table)} l set rows = s.rows, a = s.a, b = s.b
        from (select status, network, date_bin(${unit}::interval, created_at, timestamptz '2000-01-01 00:00:00+00') as at,
                     count(*) as rows, sum(amount_minor) as a, sum(coalesce(credited_minor, 0)) as b
              from recharges where merchant_id = ${m.merchant.id} group by 1, 2, 3) s
        where l.merchant_id = ${m.merchant.id} and l.list = 'recharge' and l.status = s.status
          and l.facet = s.network and l.${sql.identifier(bucket)} = s.at`);
    }
    expect(await topUpsList.totals(db, all)).toEqual(before[0]);
    expect(await topUpsList.totals(db, edges)).toEqual(before[1]);
  });
});
