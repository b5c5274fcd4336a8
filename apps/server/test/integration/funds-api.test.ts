import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor } from '@paydesk/shared';
import type { FundFlowListResponse } from '@paydesk/shared/funds/funds.schemas.ts';
import type { Db } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { createLedger, transactionWithRetry, verifyLedger } from '../../src/modules/ledger/index.ts';
import { fundFlowsRepository } from '../../src/modules/ledger/fund-flows.repository.ts';
import { zonedTimeToUtc } from '../../src/lib/timezone.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

let ctx: TestContext;
let db: Db;
const ledger = createLedger();
let merchantId: number;
let emails: Record<string, string>;
let finance: TestClient;
let strangerEntryId: number;
/** Every entry posted for the merchant, to check the API's filters and sums against. */
const posted: { id: number; type: string; amountMinor: bigint; at: Date; refNo: string | null }[] = [];

const at = (iso: string) => new Date(iso);

async function post(
  type: 'transfer_in' | 'transfer_out' | 'recharge',
  amountMinor: bigint,
  when: Date,
  refNo: string | null = null,
) {
  const { entry } = await transactionWithRetry(db, (tx) =>
    ledger.post(tx, {
      merchantId,
      type,
      amountMinor,
      refType: 'test',
      refId: String(posted.length),
      refNo,
      idempotencyKey: `funds-api:${posted.length}`,
      at: when,
    }),
  );
  posted.push({ id: entry.id, type, amountMinor, at: when, refNo });
}

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  const created = await createMerchant(db, { roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'] });
  merchantId = created.merchant.id;
  emails = Object.fromEntries(Object.entries(created.users).map(([role, u]) => [role, u.email]));

  await post('transfer_in', 100_000n, at('2026-03-01T10:00:00Z'), 'OA00000001');
  await post('transfer_in', 50_000n, at('2026-03-01T16:30:00Z'), 'OA00000002');
  await post('transfer_out', -20_000n, at('2026-03-02T03:00:00Z'), 'OA00000003');
  const frozen = await transactionWithRetry(db, (tx) =>
    ledger.hold(tx, {
      merchantId,
      type: 'funds_frozen',
      amountMinor: 10_000n,
      refType: 'test',
      refId: 'f',
      refNo: 'OA00000004',
      idempotencyKey: 'funds-api:freeze',
      at: at('2026-03-02T05:15:00Z'),
    }),
  );
  posted.push({
    id: frozen.entry.id,
    type: 'funds_frozen',
    amountMinor: -10_000n,
    at: at('2026-03-02T05:15:00Z'),
    refNo: 'OA00000004',
  });
  await post('recharge', 30_000n, at('2026-03-02T08:00:00Z'), 'TOPUP-7');
  // A long tail to page through: 45 entries, a few seconds to a few hours apart.
  for (let i = 0; i < 45; i++) {
    const when = new Date(at('2026-03-03T00:00:00Z').getTime() + i * 997_000);
    await post(
      i % 3 === 0 ? 'transfer_out' : 'transfer_in',
      i % 3 === 0 ? -BigInt(100 + i) : BigInt(1_000 + i),
      when,
    );
  }

  const other = await createMerchant(db, { roles: ['ROOT'] });
  const { entry } = await transactionWithRetry(db, (tx) =>
    ledger.post(tx, {
      merchantId: other.merchant.id,
      type: 'transfer_in',
      amountMinor: 999n,
      refType: 'test',
      refId: 'x',
      idempotencyKey: 'funds-api:other',
    }),
  );
  strangerEntryId = entry.id;
  finance = await loginAs(ctx.app, emails.FINANCE, TEST_PASSWORD);
});
afterAll(() => ctx.close());

const list = (query: string, headers: Record<string, string> = { 'x-timezone': 'UTC' }) =>
  finance.get(`/api/merchant/fund-flows${query ? `?${query}` : ''}`, headers);

/** What the list should say for entries in [from, to) of a type. */
function expected(filter: { from?: Date; to?: Date; type?: string; refNo?: string }) {
  const rows = posted
    .filter((p) => (!filter.from || p.at >= filter.from) && (!filter.to || p.at < filter.to))
    .filter((p) => (!filter.type || p.type === filter.type) && (!filter.refNo || p.refNo === filter.refNo))
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id);
  const moneyIn = rows.reduce((s, p) => (p.amountMinor > 0n ? s + p.amountMinor : s), 0n);
  const moneyOut = rows.reduce((s, p) => (p.amountMinor < 0n ? s - p.amountMinor : s), 0n);
  return {
    ids: rows.map((r) => r.id),
    total: rows.length,
    sums: { money_in: fromMinor(moneyIn, 'CNY'), money_out: fromMinor(moneyOut, 'CNY') },
  };
}

describe('GET /api/merchant/balance', () => {
  it('answers total, available and locked as decimal strings in the currency', async () => {
    const response = await finance.get('/api/merchant/balance');
    expect(response.statusCode).toBe(200);
    const available = posted.reduce((s, p) => s + p.amountMinor, 0n);
    expect(response.json()).toEqual({
      data: {
        total: fromMinor(available + 10_000n, 'CNY'),
        available: fromMinor(available, 'CNY'),
        locked: '100.00',
        currency: 'CNY',
      },
    });
  });
});

describe('GET /api/merchant/fund-flows', () => {
  it('lists newest first with the sums and total of the whole filter', async () => {
    const response = await list('per_page=10');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const all = expected({});
    expect(body.data.map((r: { id: number }) => r.id)).toEqual(all.ids.slice(0, 10));
    expect(body.meta).toMatchObject({ page: 1, per_page: 10, total: 50, sums: all.sums });
    expect(body.data[0]).toEqual({
      id: all.ids[0],
      type: expect.any(String),
      amount: expect.stringMatching(/^-?\d+\.\d{2}$/),
      available_after: expect.stringMatching(/^\d+\.\d{2}$/),
      currency: 'CNY',
      ref_type: 'test',
      ref_no: null,
      note: null,
      created_at: '2026-03-03T12:11:08.000Z',
    });
  });

  it('shows money out with a minus sign and the balance after each entry', async () => {
    const body = (await list('ref_no=OA00000003')).json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      type: 'transfer_out',
      amount: '-200.00',
      available_after: '1300.00',
      ref_no: 'OA00000003',
    });
    expect(body.meta).toMatchObject({ total: 1, sums: { money_in: '0.00', money_out: '200.00' } });
  });

  it('filters by type', async () => {
    const body = (await list('type=transfer_out&per_page=100')).json();
    const want = expected({ type: 'transfer_out' });
    expect(body.data.map((r: { id: number }) => r.id)).toEqual(want.ids);
    expect(body.meta.sums).toEqual(want.sums);
    expect(body.meta.total).toBe(want.total);
    expect(new Set(body.data.map((r: { type: string }) => r.type))).toEqual(new Set(['transfer_out']));
  });

  it("reads a date range in the user's time zone: the X-Timezone header, unless the user saved one", async () => {
    const ids = async (headers: Record<string, string>) =>
      (await list('start_time=2026-03-02&end_time=2026-03-02&per_page=100', headers))
        .json()
        .data.map((r: { id: number }) => r.id);
    // 16:30 UTC on the 1st is 00:30 on the 2nd in Shanghai.
    const shanghai = expected({ from: at('2026-03-01T16:00:00Z'), to: at('2026-03-02T16:00:00Z') });
    expect(await ids({ 'x-timezone': 'Asia/Shanghai' })).toEqual(shanghai.ids);
    expect(await ids({ 'x-timezone': '+08:00' })).toEqual(shanghai.ids);
    expect(await ids({ 'x-timezone': 'UTC' })).toEqual(
      expected({ from: at('2026-03-02T00:00:00Z'), to: at('2026-03-03T00:00:00Z') }).ids,
    );
    expect(shanghai.ids).toHaveLength(4);

    await db.update(users).set({ timezone: '-05:00' }).where(eq(users.email, emails.FINANCE));
    try {
      const newYork = expected({ from: at('2026-03-02T05:00:00Z'), to: at('2026-03-03T05:00:00Z') });
      expect(await ids({ 'x-timezone': 'Asia/Shanghai' })).toEqual(newYork.ids);
    } finally {
      await db.update(users).set({ timezone: null }).where(eq(users.email, emails.FINANCE));
    }
  });

  it('takes an end time to the second, inclusive', async () => {
    const body = (await list('start_time=2026-03-01 16:30:00&end_time=2026-03-02 03:00:00')).json();
    expect(body.data.map((r: { ref_no: string }) => r.ref_no)).toEqual(['OA00000003', 'OA00000002']);
    expect(body.meta).toMatchObject({ total: 2, sums: { money_in: '500.00', money_out: '200.00' } });
  });

  /** Any range, zone and type: the API's total, sums and rows against the entries posted. */
  const rangesHold = async () => {
    const start = at('2026-03-01T00:00:00Z').getTime();
    const minute = fc.integer({ min: 0, max: 4 * 24 * 60 });
    await fc.assert(
      fc.asyncProperty(
        minute,
        minute,
        fc.constantFrom('UTC', 'Asia/Shanghai', 'Asia/Kolkata', 'America/Sao_Paulo', '+05:45'),
        fc.constantFrom(undefined, 'transfer_in', 'transfer_out', 'funds_frozen'),
        async (a, b, zone, type) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const local = (m: number) => {
            const utc = new Date(start + m * 60_000);
            const offset =
              zonedTimeToUtc('2026-03-02T00:00:00', zone).getTime() - at('2026-03-02T00:00:00Z').getTime();
            return new Date(utc.getTime() - offset).toISOString().slice(0, 16).replace('T', ' ');
          };
          const from = zonedTimeToUtc(`${local(lo).replace(' ', 'T')}:00`, zone);
          const to = new Date(zonedTimeToUtc(`${local(hi).replace(' ', 'T')}:00`, zone).getTime() + 1000);
          const query = new URLSearchParams({
            start_time: local(lo),
            end_time: local(hi),
            per_page: '100',
            ...(type ? { type } : {}),
          });
          const body = (await list(query.toString(), { 'x-timezone': zone })).json();
          const want = expected({ from, to, type });
          expect(body.meta.total).toBe(want.total);
          expect(body.meta.sums).toEqual(want.sums);
          expect(body.data.map((r: { id: number }) => r.id)).toEqual(want.ids);
        },
      ),
      { numRuns: 40 },
    );
  };

  it('sums and counts any range, zone and type exactly (rollup hours plus partial edges)', rangesHold);

  it('sums the same once the days before the 3rd are closed into the daily rollup', async () => {
    const closed = await fundFlowsRepository.closeDays(db, at('2026-03-03T01:00:00Z'));
    expect(closed).toEqual(at('2026-03-03T00:00:00Z'));
    // A later sweep with an older clock moves nothing back.
    expect(await fundFlowsRepository.closeDays(db, at('2026-03-02T12:00:00Z'))).toBeUndefined();
    await rangesHold();
    const whole = (await list('')).json();
    expect(whole.meta).toMatchObject({ total: 50, sums: expected({}).sums });
  });

  it('sums the same once the hours before 02:00 on the 3rd are closed into minute rows', async () => {
    expect(await fundFlowsRepository.closeMinutes(db, at('2026-03-03T02:30:00Z'))).toEqual(
      at('2026-03-03T02:00:00Z'),
    );
    expect(await fundFlowsRepository.closeMinutes(db, at('2026-03-02T12:00:00Z'))).toBeUndefined();
    await rangesHold();
    // Bounds off the minute: the seconds at either end come from the entries.
    const body = (await list('start_time=2026-03-01 16:29:30&end_time=2026-03-02 03:00:00')).json();
    expect(body.meta).toMatchObject({ total: 2, sums: { money_in: '500.00', money_out: '200.00' } });
    const none = (await list('start_time=2026-03-01 16:30:01&end_time=2026-03-02 02:59:59')).json();
    expect(none.meta).toMatchObject({ total: 0, sums: { money_in: '0.00', money_out: '0.00' } });
  });

  it('counts an entry back-dated into a closed day and minute in them', async () => {
    const late = await createMerchant(db, { roles: [] });
    await transactionWithRetry(db, (tx) =>
      ledger.post(tx, {
        merchantId: late.merchant.id,
        type: 'transfer_in',
        amountMinor: 777n,
        refType: 'test',
        refId: 'late',
        idempotencyKey: 'funds-api:late',
        at: at('2026-03-01T12:00:00Z'),
      }),
    );
    expect(await fundFlowsRepository.totals(db, { merchantId: late.merchant.id })).toEqual({
      count: 1,
      inMinor: 777n,
      outMinor: 0n,
    });
    // And in its closed minute: a range cut to the minute around it reads the minute rows.
    expect(
      await fundFlowsRepository.totals(db, {
        merchantId: late.merchant.id,
        from: at('2026-03-01T11:30:00Z'),
        to: at('2026-03-01T12:30:00Z'),
      }),
    ).toEqual({ count: 1, inMinor: 777n, outMinor: 0n });
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('pages by number and by cursor to the same rows, and deep pages stay consistent', async () => {
    const all = expected({}).ids;
    const byNumber: number[] = [];
    const byCursor: number[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 7; page++) {
      const numbered = (await list(`per_page=8&page=${page}`)).json();
      byNumber.push(...numbered.data.map((r: { id: number }) => r.id));
      const keyed: FundFlowListResponse = (
        await list(`per_page=8&page=${page}${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      byCursor.push(...keyed.data.map((r) => r.id));
      expect(keyed.meta.total).toBe(50);
      cursor = keyed.meta.next_cursor;
      if (page < 7) expect(cursor).toEqual(expect.any(String));
    }
    expect(cursor).toBeNull();
    expect(byNumber).toEqual(all);
    expect(byCursor).toEqual(all);
    const beyond = (await list('per_page=8&page=8')).json();
    expect(beyond).toMatchObject({ data: [], meta: { total: 50, next_cursor: null } });
  });

  it('an empty result still answers the shape, with zero sums', async () => {
    const body = (await list('type=collection_settlement')).json();
    expect(body).toEqual({
      data: [],
      meta: {
        page: 1,
        per_page: 20,
        total: 0,
        sums: { money_in: '0.00', money_out: '0.00' },
        next_cursor: null,
        mode: 'live',
      },
    });
  });

  it.each([
    ['per_page=101', 'per_page'],
    ['page=0', 'page'],
    ['type=rebate', 'type'],
    ['start_time=2026-02-30', 'start_time'],
    ['start_time=yesterday', 'start_time'],
    ['start_time=2026-03-05&end_time=2026-03-01', 'end_time'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
  ])('refuses %s with 422 naming %s', async (query, field) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  it('refuses a time zone header that is not one', async () => {
    const response = await list('start_time=2026-03-02', { 'x-timezone': 'Mars/Olympus' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.timezone).toEqual([
      'The X-Timezone header must be an IANA time zone or a UTC offset.',
    ]);
  });
});

describe('GET /api/merchant/fund-flows/:id', () => {
  it("answers one of the merchant's entries", async () => {
    const response = await finance.get(`/api/merchant/fund-flows/${posted[2].id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: posted[2].id,
      type: 'transfer_out',
      amount: '-200.00',
      ref_no: 'OA00000003',
    });
  });

  it("answers 404 for another merchant's entry, an unknown id, or something that is not an id", async () => {
    for (const id of [String(strangerEntryId), '999999999', 'abc', '1e3']) {
      const response = await finance.get(`/api/merchant/fund-flows/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('The fund flow entry was not found.');
    }
  });
});

describe('who may see the funds', () => {
  const paths = () => [
    '/api/merchant/balance',
    '/api/merchant/fund-flows',
    `/api/merchant/fund-flows/${posted[0].id}`,
  ];

  it.each(['ROOT', 'FINANCE', 'VIEWER'])('%s may (funds:view)', async (role) => {
    const client = await loginAs(ctx.app, emails[role], TEST_PASSWORD);
    for (const path of paths()) expect((await client.get(path)).statusCode).toBe(200);
  });

  it('OPERATOR may not: 403 with a message', async () => {
    const client = await loginAs(ctx.app, emails.OPERATOR, TEST_PASSWORD);
    for (const path of paths()) {
      const response = await client.get(path);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/permission/);
    }
  });

  it('nobody without a session: 401', async () => {
    for (const path of paths())
      expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
  });
});
