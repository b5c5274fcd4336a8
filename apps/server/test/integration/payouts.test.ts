import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PAYOUT_STATUSES,
  PAYOUT_TRANSITIONS,
  type PayoutStatus,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { queryRows } from '../../src/db/client.ts';
import { channels } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  freshNonce,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext, testDatabaseKind } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Send money (DESIGN sections 3, 4 and 6): the hold at creation, the life cycle and its ledger entries,
// insufficient funds under concurrency, Idempotency-Key, and the console's form behind the step-up.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());
afterEach(() => releaseClock());

/** A merchant with a sandbox payout channel (1% + 0.50, 1.00 to 50,000.00) and money in. */
async function payer(fundsMinor = 100_000n): Promise<GatewayMerchant> {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { roles: ['ROOT', 'VIEWER'] });
  await openPayoutChannel(ctx.database.db, m.merchant.id);
  if (fundsMinor > 0n) {
    await fundMerchant(ctx.database.db, m.merchant.id, fundsMinor);
  }
  return m;
}

const balance = async (m: GatewayMerchant) =>
  (await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance')).json().data as {
    available: string;
    locked: string;
  };

const createPayout = (
  m: GatewayMerchant,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: { amount: '100.00', ...CN_PAYEE, ...body },
    headers,
  });

const payoutCount = async (merchantId: number) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from payouts where merchant_id = ${merchantId}`,
    )
  )[0].n;

describe('a payout through the gateway', () => {
  it('holds amount + fee at once, and success captures it', async () => {
    const m = await payer();
    const created = await createPayout(m, { out_trade_no: 'PO-1' });
    expect(created.statusCode, created.body).toBe(201);
    const payout = created.json().data;
    expect(payout).toMatchObject({
      out_trade_no: 'PO-1',
      status: 'pending',
      amount: '100.00',
      fee: '1.50',
      currency: 'CNY',
      channel: 'sandbox-pay',
      payee_name: '张三',
      account_no: '***************3445',
      finished_at: null,
    });
    expect(await balance(m)).toMatchObject({ available: '898.50', locked: '101.50' });

    // The sandbox: processing at once (the channel gives the payout its own number), then success.
    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    expect((await root.get(`/api/merchant/payouts/${payout.trade_no}`)).json().data.channel_ref).toBeNull();
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    expect((await root.get(`/api/merchant/payouts/${payout.trade_no}`)).json().data.channel_ref).toMatch(
      /^SBX\d{16}$/,
    );
    expect(
      (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/payouts/${payout.trade_no}`)).json().data.status,
    ).toBe('processing');
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    const done = (await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/payouts?out_trade_no=PO-1')).json().data;
    expect(done).toMatchObject({ status: 'success', failure_reason: null });
    expect(await balance(m)).toMatchObject({ available: '898.50', locked: '0.00' });

    // A refund received gives the amount back; the fee is kept.
    await ctx.app.services.payouts.transition(payout.trade_no, 'refund_received', 'Returned by the bank');
    expect(await balance(m)).toMatchObject({ available: '998.50', locked: '0.00' });
    const flows = (
      await (await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD)).get('/api/merchant/fund-flows')
    ).json().data;
    expect(flows.map((f: { type: string; amount: string }) => [f.type, f.amount])).toEqual([
      ['payout_refund', '100.00'],
      ['payout_deduction', '-101.50'],
      ['transfer_in', '1000.00'],
    ]);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('fails an account ending in 0000 and gives amount + fee back', async () => {
    const m = await payer();
    const payout = (
      await createPayout(m, { out_trade_no: 'PO-0000', account_no: '6222020200112230000' })
    ).json().data;
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    const done = (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/payouts/${payout.trade_no}`)).json().data;
    expect(done.status).toBe('failed');
    expect(done.failure_reason).toContain('0000');
    expect(await balance(m)).toMatchObject({ available: '1000.00', locked: '0.00' });
  });

  it('refuses what the funds cannot cover with 422 insufficient_funds, writing nothing', async () => {
    const m = await payer(5_000n);
    const refused = await createPayout(m, { out_trade_no: 'PO-BIG' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('insufficient_funds');
    expect(await payoutCount(m.merchant.id)).toBe(0);
    expect(await balance(m)).toMatchObject({ available: '50.00', locked: '0.00' });
  });

  it('checks the payee per the channel country and refuses a repeated out_trade_no with its trade_no', async () => {
    const m = await payer();
    const missing = await createPayout(m, { out_trade_no: 'PO-F', bank_name: '' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.bank_name).toBeDefined();
    const first = (await createPayout(m, { out_trade_no: 'PO-D' })).json().data;
    const again = await createPayout(m, { out_trade_no: 'PO-D' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'out_trade_no_taken', trade_no: first.trade_no });
  });

  it('lets exactly the payouts the balance covers through, out of 200 at once', async () => {
    // 10.00 + fee 0.60 each: 1,060.00 covers exactly 100.
    const m = await payer(106_000n);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => createPayout(m, { out_trade_no: `RUSH-${i}`, amount: '10.00' })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(100);
    expect(responses.filter((r) => r.statusCode === 422).map((r) => r.json().code)).toEqual(
      Array(100).fill('insufficient_funds'),
    );
    expect(await balance(m)).toMatchObject({ available: '0.00', locked: '1060.00' });
    expect(await payoutCount(m.merchant.id)).toBe(100);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('answers the same Idempotency-Key sent 20 times at once with one payout', async () => {
    const m = await payer();
    const key = `idem-${freshNonce()}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        createPayout(m, { out_trade_no: 'IDEM-1' }, { 'idempotency-key': key }),
      ),
    );
    expect(await payoutCount(m.merchant.id)).toBe(1);
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const others = responses.filter(
      (r) => !(r.statusCode === 201 && r.headers['idempotent-replayed'] !== 'true'),
    );
    for (const r of others) {
      expect(
        (r.statusCode === 201 && r.headers['idempotent-replayed'] === 'true') ||
          (r.statusCode === 409 && r.json().code === 'idempotency_key_in_flight'),
      ).toBe(true);
    }
    const tradeNos = new Set(created.map((r) => r.json().data.trade_no));
    expect(tradeNos.size).toBe(1);

    // Later: a replay with the header, another body refused.
    const replay = await createPayout(m, { out_trade_no: 'IDEM-1' }, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.trade_no).toBe([...tradeNos][0]);
    const other = await createPayout(m, { out_trade_no: 'IDEM-2' }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await payoutCount(m.merchant.id)).toBe(1);
  });

  it("answers 404 for another merchant's payout", async () => {
    const m = await payer();
    const other = await payer(0n);
    const payout = (await createPayout(m, { out_trade_no: 'MINE' })).json().data;
    expect(
      (await gatewayCall(ctx.app, other, 'GET', `/gateway/v1/payouts/${payout.trade_no}`)).statusCode,
    ).toBe(404);
    const console = await loginAs(ctx.app, other.users.ROOT.email, TEST_PASSWORD);
    expect((await console.get(`/api/merchant/payouts/${payout.trade_no}`)).statusCode).toBe(404);
  });
});

describe("a gateway payout's one statement (a remembered key and channel)", () => {
  // Once this process remembers the key and the payout channel, POST /gateway/v1/payouts without an
  // Idempotency-Key claims the nonce, holds the money and writes the payout, its job and its journal
  // entry in one statement: every refusal must read as on the long way.
  const warmedUp = async (fundsMinor?: bigint) => {
    const m = await payer(fundsMinor);
    for (const no of ['WARM-1', 'WARM-2']) {
      const made = await createPayout(m, { out_trade_no: no, amount: '10.00' });
      expect(made.statusCode, made.body).toBe(201);
    }
    return m;
  };
  /**
   * True once a backend of this database waits on a lock (`Lock`: a row or transaction lock; `advisory`:
   * a key's lock): the request under test has reached its wait. Polled, not timed.
   */
  const someoneWaits = async (kind: 'Lock' | 'advisory') => {
    for (let i = 0; i < 10_000; i++) {
      const [row] = await queryRows<{ n: number }>(
        ctx.database.db,
        kind === 'Lock'
          ? sql`select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and wait_event_type = 'Lock'`
          : sql`select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and wait_event = 'advisory'`,
      );
      if (Number(row.n) > 0) return true;
    }
    return false;
  };
  /** The transaction ids that wrote the call's nonce, the payout, its hold's entry and its job. */
  const writersOf = async (m: GatewayMerchant, nonce: string, tradeNo: string) => {
    const [row] = await queryRows<Record<string, string>>(
      ctx.database.db,
      sql`select (select xmin::text from gateway_nonces where merchant_id = ${m.merchant.id} and nonce = ${nonce}) as nonce,
                 (select xmin::text from payouts where trade_no = ${tradeNo}) as payout,
                 (select xmin::text from journal_entries where ref_no = ${tradeNo}) as entry,
                 (select xmin::text from holds where ref_no = ${tradeNo}) as hold,
                 (select xmin::text from fund_flows where ref_no = ${tradeNo}) as flow,
                 (select xmin::text from pgboss.job where name = 'sandbox.complete' and data->>'trade_no' = ${tradeNo}) as job`,
    );
    return row;
  };

  it('commits the nonce, the payout, its job and its hold together, and the sandbox then pays it', async () => {
    const m = await warmedUp();
    const nonce = freshNonce();
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { amount: '100.00', ...CN_PAYEE, out_trade_no: 'ONE-1' },
      nonce,
    });
    expect(made.statusCode, made.body).toBe(201);
    const payout = made.json().data;
    expect(payout).toMatchObject({
      status: 'pending',
      amount: '100.00',
      fee: '1.50',
      channel: 'sandbox-pay',
    });
    const writers = await writersOf(m, nonce, payout.trade_no);
    expect(writers.payout).toBeTypeOf('string');
    expect(writers).toEqual({
      nonce: writers.payout,
      payout: writers.payout,
      entry: writers.payout,
      hold: writers.payout,
      flow: writers.payout,
      job: writers.payout,
    });
    // 1,000.00 - 2 x 10.60 - 101.50
    expect(await balance(m)).toMatchObject({ available: '877.30', locked: '122.70' });
    const [flow] = await queryRows<{ type: string; amount: string; after: string; key: string }>(
      ctx.database.db,
      sql`select f.type, f.amount_minor::text as amount, f.available_after_minor::text as after,
                 h.idempotency_key as key
            from fund_flows f join holds h on h.id = f.hold_id where f.ref_no = ${payout.trade_no}`,
    );
    const [{ id }] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id::text from payouts where trade_no = ${payout.trade_no}`,
    );
    expect(flow).toEqual({
      type: 'payout_deduction',
      amount: '-10150',
      after: '87730',
      key: `payout:${id}:deduct`,
    });

    // Its job moves it as any payout's: processing, then success, capturing the hold.
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    await ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: payout.trade_no });
    const done = await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/payouts/${payout.trade_no}`);
    expect(done.json().data.status).toBe('success');
    expect(await balance(m)).toMatchObject({ available: '877.30', locked: '21.20' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('refuses what available cannot cover, burns the nonce and writes nothing else', async () => {
    // 300.00 - 2 x 10.60 = 278.80 left.
    const m = await warmedUp(30_000n);
    const nonce = freshNonce();
    const body = { amount: '300.00', ...CN_PAYEE, out_trade_no: 'POOR-1' };
    const refused = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', { body, nonce });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'insufficient_funds']);
    const again = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', { body, nonce });
    expect(again.json().code).toBe('nonce_reused');
    expect(await payoutCount(m.merchant.id)).toBe(2);
    expect(await balance(m)).toMatchObject({ available: '278.80', locked: '21.20' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('lets exactly what the balance covers through, out of 60 at once', async () => {
    // 2 x 10.60 warm up, then 318.00 covers exactly 30 more.
    const m = await warmedUp(33_920n);
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => createPayout(m, { out_trade_no: `HOT-${i}`, amount: '10.00' })),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(30);
    expect(responses.filter((r) => r.statusCode !== 201).map((r) => r.json().code)).toEqual(
      Array(30).fill('insufficient_funds'),
    );
    expect(await balance(m)).toMatchObject({ available: '0.00', locked: '339.20' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('writes payouts that arrive together in one statement and commit, each with its own entry, hold and fund flow', async () => {
    // Group commit: the calls that arrive while one statement runs are written together by the next;
    // each answers as its own statement would, and the books read as if each had been written alone.
    const [a, b] = [await warmedUp(), await warmedUp()];
    const replayed = freshNonce();
    const first = await gatewayCall(ctx.app, a, 'POST', '/gateway/v1/payouts', {
      body: { amount: '10.00', ...CN_PAYEE, out_trade_no: 'GC-FIRST' },
      nonce: replayed,
    });
    expect(first.statusCode).toBe(201);

    const responses = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => createPayout(a, { out_trade_no: `GC-A${i}`, amount: '10.00' })),
      ...Array.from({ length: 10 }, (_, i) => createPayout(b, { out_trade_no: `GC-B${i}`, amount: '20.00' })),
      createPayout(a, { out_trade_no: 'GC-DUP', amount: '10.00' }),
      createPayout(a, { out_trade_no: 'GC-DUP', amount: '10.00' }),
      gatewayCall(ctx.app, a, 'POST', '/gateway/v1/payouts', {
        body: { amount: '10.00', ...CN_PAYEE, out_trade_no: 'GC-REPLAY' },
        nonce: replayed,
      }),
    ]);
    const answers = responses.map((r) => [r.statusCode, r.json().code ?? null]);
    expect(answers.slice(0, 20)).toEqual(Array(20).fill([201, null]));
    expect(answers.slice(20, 22).sort()).toEqual([
      [201, null],
      [409, 'out_trade_no_taken'],
    ]);
    expect(answers[22]).toEqual([401, 'nonce_reused']);

    const rows = await queryRows<{
      payout: string;
      entry: string;
      hold: string;
      flow: string;
      job: string;
    }>(
      ctx.database.db,
      sql`select p.xmin::text as payout, e.xmin::text as entry, h.xmin::text as hold, f.xmin::text as flow,
                 (select j.xmin::text from pgboss.job j
                   where j.name = 'sandbox.complete' and j.data->>'trade_no' = p.trade_no) as job
            from payouts p
            join journal_entries e on e.idempotency_key = 'payout:' || p.id || ':deduct'
            join holds h on h.idempotency_key = e.idempotency_key and h.status = 'open'
            join fund_flows f on f.entry_id = e.id and f.hold_id = h.id
           where p.out_trade_no like 'GC-%' and p.out_trade_no <> 'GC-FIRST'`,
    );
    expect(rows).toHaveLength(21);
    // Each payout's entry, hold, fund flow and sandbox job commit with it.
    for (const row of rows)
      expect([row.entry, row.hold, row.flow, row.job]).toEqual(Array(4).fill(row.payout));
    // Fewer commits than payouts: some were written together.
    expect(new Set(rows.map((r) => r.payout)).size).toBeLessThan(rows.length);
    // 1,000.00 - 2 x 10.60 warm up - 10.60 first - 11 x 10.60 (a); 2 x 10.60 and 10 x 20.70 (b).
    expect(await balance(a)).toMatchObject({ available: '851.60', locked: '148.40' });
    expect(await balance(b)).toMatchObject({ available: '771.80', locked: '228.20' });
    // Each fund flow's available-after runs down in the order the entries were written.
    const report = await verifyLedger(ctx.database.db);
    expect(report.problems).toEqual([]);
  });

  it('writes the payouts of merchants whose funds cover them, and refuses exactly what one cannot cover', async () => {
    // 2 x 10.60 warm up, then 31.80 covers exactly 3 more of 10.60.
    const [short, rich] = [await warmedUp(5_300n), await warmedUp()];
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        createPayout(short, { out_trade_no: `SH-${i}`, amount: '10.00' }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        createPayout(rich, { out_trade_no: `RI-${i}`, amount: '10.00' }),
      ),
    ]);
    const codes = responses.map((r) => (r.statusCode === 201 ? 201 : r.json().code));
    expect(codes.slice(0, 6).sort()).toEqual([201, 201, 201, ...Array(3).fill('insufficient_funds')]);
    expect(codes.slice(6)).toEqual(Array(6).fill(201));
    expect(await balance(short)).toMatchObject({ available: '0.00', locked: '53.00' });
    expect(await balance(rich)).toMatchObject({ available: '915.20', locked: '84.80' });
    expect((await verifyLedger(ctx.database.db)).problems).toEqual([]);
  });

  it('lets one of 20 concurrent payouts with the same nonce through', async () => {
    const m = await warmedUp();
    const nonce = freshNonce();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
          body: { amount: '10.00', ...CN_PAYEE, out_trade_no: `NC-${i}` },
          nonce,
        }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode !== 201).map((r) => r.json().code)).toEqual(
      Array(19).fill('nonce_reused'),
    );
    expect(await payoutCount(m.merchant.id)).toBe(3);
  });

  it('answers a taken out_trade_no with 409 and burns the nonce', async () => {
    const m = await warmedUp();
    const nonce = freshNonce();
    const body = { amount: '10.00', ...CN_PAYEE, out_trade_no: 'WARM-1' };
    const taken = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', { body, nonce });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'out_trade_no_taken']);
    expect(taken.json().trade_no).toMatch(/^P/);
    const again = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { ...body, out_trade_no: 'NEW-1' },
      nonce,
    });
    expect(again.json().code).toBe('nonce_reused');
    expect(await payoutCount(m.merchant.id)).toBe(2);
  });

  it("stores an Idempotency-Key's answer with the payout, and replays exactly that answer", async () => {
    const m = await warmedUp();
    const key = `one-${freshNonce()}`;
    const nonce = freshNonce();
    const body = { amount: '100.00', ...CN_PAYEE, out_trade_no: 'KEY-1' };
    const first = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body,
      nonce,
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode, first.body).toBe(201);
    const [writers] = await queryRows<{ nonce: string; key: string; payout: string }>(
      ctx.database.db,
      sql`select (select xmin::text from gateway_nonces where merchant_id = ${m.merchant.id} and nonce = ${nonce}) as nonce,
                 (select xmin::text from idempotency_keys where merchant_id = ${m.merchant.id} and key = ${key}) as key,
                 (select xmin::text from payouts where out_trade_no = 'KEY-1' and merchant_id = ${m.merchant.id}) as payout`,
    );
    expect(writers.payout).toBeTypeOf('string');
    expect(writers).toEqual({ nonce: writers.payout, key: writers.payout, payout: writers.payout });

    const replay = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body,
      headers: { 'idempotency-key': key },
    });
    expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(replay.json()).toEqual(first.json());
    const other = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { ...body, out_trade_no: 'KEY-2' },
      headers: { 'idempotency-key': key },
    });
    expect([other.statusCode, other.json().code]).toEqual([422, 'idempotency_key_reused']);
    expect(await payoutCount(m.merchant.id)).toBe(3);
    expect(await balance(m)).toMatchObject({ available: '877.30', locked: '122.70' });
  });

  it('answers one Idempotency-Key sent 20 times at once with one payout', async () => {
    const m = await warmedUp();
    const key = `one-${freshNonce()}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
          body: { amount: '10.00', ...CN_PAYEE, out_trade_no: 'KEY-RUSH' },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    const firsts = responses.filter(
      (r) => r.statusCode === 201 && r.headers['idempotent-replayed'] !== 'true',
    );
    expect(firsts).toHaveLength(1);
    for (const r of responses.filter((r) => !firsts.includes(r))) {
      const replayed = r.statusCode === 201 && r.headers['idempotent-replayed'] === 'true';
      expect(
        replayed || (r.statusCode === 409 && r.json().code === 'idempotency_key_in_flight'),
        r.body,
      ).toBe(true);
      if (replayed) expect(r.json()).toEqual(firsts[0].json());
    }
    expect(await payoutCount(m.merchant.id)).toBe(3);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  /** `count` payouts of 10.00, each with its own Idempotency-Key, sent at once. */
  const keyedAtOnce = async (m: GatewayMerchant, count: number, tag: string) => {
    const keys = Array.from({ length: count }, (_, i) => `${tag}-${i}-${freshNonce()}`);
    const body = (i: number) => ({ amount: '10.00', ...CN_PAYEE, out_trade_no: `${tag}-${i}` });
    const send = (key: string, i: number) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
        body: body(i),
        headers: { 'idempotency-key': key },
      });
    const responses = await Promise.all(keys.map(send));
    // Each created payout and its key's answer, by the transaction that wrote them.
    const written = await queryRows<{ payout: string; key: string | null }>(
      ctx.database.db,
      sql`select p.xmin::text as payout,
                 (select i.xmin::text from idempotency_keys i
                   where i.merchant_id = p.merchant_id and i.key like ${`${tag}-%`}
                     and i.response_body like '%' || p.trade_no || '%') as key
            from payouts p where p.merchant_id = ${m.merchant.id} and p.out_trade_no like ${`${tag}-%`}`,
    );
    const replays = [];
    for (const [i, key] of keys.entries()) replays.push(await send(key, i));
    return { responses, written, replays };
  };

  it('writes payouts sent at once with their own keys in shared commits, each with its answer', async () => {
    const m = await warmedUp();
    const { responses, written, replays } = await keyedAtOnce(m, 20, 'KEY-MANY');
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(written).toHaveLength(20);
    for (const row of written) expect(row.key).toBe(row.payout);
    // Fewer commits than payouts: calls that arrived together shared a statement.
    expect(new Set(written.map((row) => row.payout)).size).toBeLessThan(20);
    for (const [i, replay] of replays.entries()) {
      expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
      expect(replay.json()).toEqual(responses[i]!.json());
    }
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('lets the funds decide payouts with their own keys call by call, each key keeping its answer', async () => {
    // Two warm-up payouts, then funds for exactly 12 of the 30 (10.00 + 0.60 fee each).
    const m = await warmedUp(2_120n + 12n * 1_060n);
    const { responses, written, replays } = await keyedAtOnce(m, 30, 'KEY-SHORT');
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    expect(responses.filter((r) => r.statusCode !== 201).map((r) => r.json().code)).toEqual(
      Array(18).fill('insufficient_funds'),
    );
    expect(written).toHaveLength(12);
    for (const row of written) expect(row.key).toBe(row.payout);
    for (const [i, replay] of replays.entries())
      expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([statuses[i], 'true']);
    expect(await balance(m)).toMatchObject({ available: '0.00' });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it("keeps a refusal as the key's answer, and spends the nonce of a malformed key", async () => {
    const m = await warmedUp(30_000n);
    const key = `one-${freshNonce()}`;
    const body = { amount: '300.00', ...CN_PAYEE, out_trade_no: 'KEY-POOR' };
    const refused = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body,
      headers: { 'idempotency-key': key },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'insufficient_funds']);
    const replay = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body,
      headers: { 'idempotency-key': key },
    });
    expect([replay.statusCode, replay.headers['idempotent-replayed'], replay.json().code]).toEqual([
      422,
      'true',
      'insufficient_funds',
    ]);

    const nonce = freshNonce();
    const malformed = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { ...body, amount: '10.00', out_trade_no: 'KEY-BAD' },
      nonce,
      headers: { 'idempotency-key': 'with space' },
    });
    expect([malformed.statusCode, malformed.json().code]).toEqual([422, 'validation_failed']);
    const again = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { ...body, amount: '10.00', out_trade_no: 'KEY-BAD' },
      nonce,
    });
    expect(again.json().code).toBe('nonce_reused');
    expect(await payoutCount(m.merchant.id)).toBe(2);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'answers a payout that raced another of its out_trade_no as the long way does, and keeps no money',
    async () => {
      const m = await warmedUp();
      const { default: pg } = await import('pg');
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        // Another transaction (another process) writes the same out_trade_no and has not committed yet.
        await other.query('begin');
        const inserted = await other.query<{ trade_no: string }>(
          `insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                                fee_minor, currency, account_type, payee_name, account_no)
           select merchant_id, channel_id, channel_code, 'PRACE' || substr(trade_no, 2), 'RACE-1', source,
                  amount_minor, fee_minor, currency, account_type, payee_name, account_no
             from payouts where merchant_id = $1 and out_trade_no = 'WARM-1'
           returning trade_no`,
          [m.merchant.id],
        );
        const nonce = freshNonce();
        const body = { amount: '10.00', ...CN_PAYEE, out_trade_no: 'RACE-1' };
        const racing = gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', { body, nonce });
        // The one statement gets past its own check (it cannot see the uncommitted row) and waits on the
        // other's out_trade_no; then the other commits.
        expect(await someoneWaits('Lock')).toBe(true);
        await other.query('commit');

        const answer = await racing;
        expect([answer.statusCode, answer.json().code, answer.json().trade_no]).toEqual([
          409,
          'out_trade_no_taken',
          inserted.rows[0].trade_no,
        ]);
        const again = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
          body: { ...body, out_trade_no: 'RACE-2' },
          nonce,
        });
        expect(again.json().code).toBe('nonce_reused');
        // The statement's hold went with it: only the two warm-up payouts hold money.
        expect(await balance(m)).toMatchObject({ available: '978.80', locked: '21.20' });
      } finally {
        await other.end();
      }
    },
  );

  it.runIf(testDatabaseKind() === 'postgres')(
    'gives a refused call the answer another call with its Idempotency-Key committed meanwhile',
    async () => {
      const m = await warmedUp();
      const key = `one-${freshNonce()}`;
      // Over the channel's 50,000.00: refused before any transaction, so the refusal is stored on its own.
      const body = { amount: '50000.01', ...CN_PAYEE, out_trade_no: 'KEY-RACE' };
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
      const { default: pg } = await import('pg');
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        // Another request with the key holds its lock, as a payout's transaction does.
        await other.query('begin');
        await other.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `${m.merchant.id}:${key}`,
        ]);
        const refused = gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
          body,
          headers: { 'idempotency-key': key },
        });
        expect(await someoneWaits('advisory')).toBe(true);
        // ... and commits its answer while the refused call waits to store its own.
        await other.query(
          `insert into idempotency_keys (merchant_id, key, scope, request_hash, status, response_status,
                                         response_body, created_at)
           values ($1, $2, 'payout.create', $3, 'done', 201, '{"data":{"trade_no":"PFIRST"}}', now())`,
          [m.merchant.id, key, requestHash],
        );
        await other.query('commit');

        const answer = await refused;
        expect([answer.statusCode, answer.headers['idempotent-replayed'], answer.json()]).toEqual([
          201,
          'true',
          { data: { trade_no: 'PFIRST' } },
        ]);
      } finally {
        await other.end();
      }
    },
  );

  it('reads the channel again once it changed: new terms apply, a closed one refuses', async () => {
    const m = await warmedUp();
    const { eq } = await import('drizzle-orm');
    const { db } = ctx.database;
    await db
      .update(channels)
      .set({ feeRatePpm: 20_000, updatedAt: new Date() })
      .where(eq(channels.merchantId, m.merchant.id));
    const dearer = await createPayout(m, { out_trade_no: 'FEE-1', amount: '100.00' });
    expect([dearer.statusCode, dearer.json().data?.fee]).toEqual([201, '2.50']);
    await db
      .update(channels)
      .set({ status: 'closed', updatedAt: new Date() })
      .where(eq(channels.merchantId, m.merchant.id));
    const closed = await createPayout(m, { out_trade_no: 'CLOSED-1', amount: '10.00' });
    expect([closed.statusCode, closed.json().code]).toEqual([422, 'channel_unavailable']);
    expect(await payoutCount(m.merchant.id)).toBe(3);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe('the life cycle', () => {
  /** The shortest allowed path from pending to each state. */
  const PATH: Record<Exclude<PayoutStatus, 'pending_approval'>, PayoutStatus[]> = {
    pending: [],
    processing: ['processing'],
    success: ['processing', 'success'],
    failed: ['processing', 'failed'],
    cancelled: ['cancelled'],
    rejected: ['rejected'],
    refund_received: ['processing', 'success', 'refund_received'],
  };

  it('allows exactly the transitions of the table; any other answers 409 and changes nothing', async () => {
    const m = await payer(10_000_000n);
    let n = 0;
    // pending_approval is reached only by a threshold and left only by approve or reject (payout-approval.test.ts).
    for (const from of PAYOUT_STATUSES.filter((s) => s !== 'pending_approval')) {
      for (const to of PAYOUT_STATUSES) {
        n += 1;
        const payout = (await createPayout(m, { out_trade_no: `SM-${n}`, amount: '10.00' })).json().data;
        for (const step of PATH[from])
          await ctx.app.services.payouts.transition(payout.trade_no, step, 'test');
        const before = await balance(m);
        const allowed = PAYOUT_TRANSITIONS[from].includes(to);
        const attempt = ctx.app.services.payouts.transition(payout.trade_no, to, 'test');
        if (allowed) {
          expect((await attempt).status, `${from} -> ${to}`).toBe(to);
        } else {
          await expect(attempt, `${from} -> ${to}`).rejects.toMatchObject({ status: 409 });
          expect(await balance(m), `${from} -> ${to}`).toEqual(before);
        }
      }
    }
    // Never captured after failing, never released after capture: the books prove it.
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});

describe('the console form', () => {
  it('sends a payout with both factors, asks before a near-duplicate, and lists it with its sums', async () => {
    const clock = freezeClock();
    const m = await payer();
    const client = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const { nextCode } = await setUpStepUp(client, clock, 'pay-123456');

    const channelsAnswer = (await client.get('/api/merchant/payout-channels')).json().data;
    expect(channelsAnswer.available).toBe('1000.00');
    expect(channelsAnswer.channels[0]).toMatchObject({
      code: 'sandbox-pay',
      country: 'CN',
      fee_rate: '1',
      fixed_fee: '0.50',
    });
    expect(channelsAnswer.channels[0].banks.length).toBeGreaterThan(5);

    const form = { channel: 'sandbox-pay', amount: '20.00', ...CN_PAYEE, payment_password: 'pay-123456' };
    const first = await client.post('/api/merchant/payouts', { ...form, code: await nextCode() });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      status: 'pending',
      amount: '20.00',
      fee: '0.70',
      source: 'console',
    });

    const duplicate = await client.post('/api/merchant/payouts', { ...form, code: await nextCode() });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      code: 'possible_duplicate',
      trade_no: first.json().data.trade_no,
    });
    const confirmed = await client.post('/api/merchant/payouts', {
      ...form,
      code: await nextCode(),
      confirm_duplicate: true,
    });
    expect(confirmed.statusCode).toBe(201);

    const wrongPassword = await client.post('/api/merchant/payouts', {
      ...form,
      payment_password: 'nope-nope',
      code: await nextCode(),
      confirm_duplicate: true,
    });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors.payment_password).toBeDefined();

    const list = (await client.get('/api/merchant/payouts')).json();
    expect(list.meta).toMatchObject({ total: 2, sums: { amount: '40.00', count: 2, fee: '1.40' } });
    const viewer = await loginAs(ctx.app, m.users.VIEWER.email, TEST_PASSWORD);
    expect((await viewer.get('/api/merchant/payouts')).statusCode).toBe(200);
    expect((await viewer.post('/api/merchant/payouts', { ...form, code: '123456' })).statusCode).toBe(403);
    const dashboard = (await client.get('/api/merchant/dashboard')).json().data;
    expect(dashboard.payout).toMatchObject({ order_count: 2, paid_count: 0 });
  });
});
