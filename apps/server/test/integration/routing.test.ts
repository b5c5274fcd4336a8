import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { channels, collections, operatorActions, payouts } from '../../src/db/schema/index.ts';
import type { ChannelAdapter, FailOver, ProviderFailure } from '../../src/modules/channels/index.ts';
import { adapterFor, useAdapter } from '../../src/modules/channels/adapters/registry.ts';
import { routeOf, routingTableOf } from '../../src/modules/channels/index.ts';
import { collectionsRepository } from '../../src/modules/collections/collections.repository.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { opsPost, opsRunner } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Routing (DESIGN 14): several open channels of a kind per merchant, the highest priority's shared by
// weight (the draw injected), their amount limits, the gateway's `channel` forcing one, a channel taken
// down; failover on an adapter's safe failure (a new attempt, one order) and review on an unsafe one
// (never sent twice); cool-down and recovery with a moved clock, each change in the audit log; and the
// operator's bad routing input refused, naming the field, with nothing written.

let ctx: TestContext;
let db: Db;
let token: string;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
let draw = 0;
const random = () => draw;

/** What the stand-in adapter was asked to send, per trade_no and channel (a provider's view). */
const sent: string[] = [];
/** What failOver answered the stand-in. */
const failOvers: FailOver[] = [];
/** Channels whose stand-in provider fails, and how. */
const FAILURES: Record<string, ProviderFailure> = {
  flaky: { stage: 'connect', code: 'ECONNREFUSED' },
  lost: { stage: 'unknown', code: 'TimeoutError' },
};

/**
 * A test stand-in of a provider, in the sandbox's place: every order follows up with a job that "calls"
 * the provider; on a channel named in FAILURES the call fails that way, elsewhere it succeeds.
 */
function standIn(): ChannelAdapter {
  const sandbox = adapterFor('sandbox');
  const job = (tradeNo: string) => ({ queue: 'sandbox.complete' as const, data: { trade_no: tradeNo } });
  return {
    ...sandbox,
    collectionFollowsUp: () => true,
    createCollection: (_channel, order) => ({
      payUrl: `/pay/${order.tradeNo}`,
      followUp: job(order.tradeNo),
    }),
    submitPayout: (_channel, order) => ({ followUp: job(order.tradeNo) }),
    isSafeToRetryElsewhere: (failure) => failure.stage === 'connect',
    async runJob(_queue, data, ports) {
      const tradeNo = String(data.trade_no);
      if (tradeNo.startsWith('P')) {
        const row = await ports.payouts.findAny(tradeNo);
        if (!row || row.status !== 'pending') return;
        const channel = (await ports.findChannel(row.channelId))!;
        sent.push(`${tradeNo}@${channel.code}`);
        const failure = FAILURES[channel.code];
        if (failure) {
          failOvers.push(await ports.payouts.failOver(tradeNo, failure));
          return;
        }
        await ports.payouts.transition(tradeNo, 'processing', null, `SI-${tradeNo}`);
        await ports.payouts.transition(tradeNo, 'success');
        return;
      }
      const order = await ports.collections.findAny(tradeNo);
      if (!order || order.status !== 'to_be_paid' || order.channelRef) return;
      const channel = (await ports.findChannel(order.channelId))!;
      sent.push(`${tradeNo}@${channel.code}`);
      const failure = FAILURES[channel.code];
      if (failure) {
        failOvers.push(await ports.collections.failOver(tradeNo, failure));
        return;
      }
      await ports.collections.setProviderLink(tradeNo, `SI-${tradeNo}`, `https://pay.example/${tradeNo}`);
    },
  };
}

const ops = (url: string, body: Record<string, unknown>) => opsPost(ctx.app, token, url, body);

async function openChannel(m: GatewayMerchant, code: string, kind: 'collection' | 'payout', extra = {}) {
  const opened = await ops('/ops/v1/channels/open', {
    merchant: m.merchant.no,
    mode: 'test',
    code,
    kind,
    fee_rate: '1',
    min_amount: '1.00',
    max_amount: '50000.00',
    reason: 'routing test',
    ...extra,
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return opened.json().data.channel;
}

const route = (m: GatewayMerchant, code: string, kind: string, set: Record<string, unknown>) =>
  ops('/ops/v1/channels/route', {
    merchant: m.merchant.no,
    mode: 'test',
    code,
    kind,
    reason: 'routing',
    ...set,
  });

let seq = 0;
async function collect(m: GatewayMerchant, body: Record<string, unknown> = {}) {
  const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: `R-${++seq}`, amount: '100.00', ...body },
    now,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data as { trade_no: string; channel: string; pay_url: string };
}

async function pay(m: GatewayMerchant, accountNo = CN_PAYEE.account_no) {
  const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
    body: { out_trade_no: `RP-${++seq}`, amount: '100.00', ...CN_PAYEE, account_no: accountNo },
    now,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data as { trade_no: string; channel: string };
}

const runJob = (tradeNo: string) =>
  ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });

type Attempt = { channel: string; outcome: string; answer_summary: Record<string, unknown> | null };
const attemptsOf = (kind: 'collection' | 'payout', tradeNo: string) =>
  queryRows<Attempt>(
    db,
    sql`select c.code as channel, a.outcome, a.answer_summary
          from channel_attempts a join channels c on c.id = a.channel_id
          join ${sql.raw(kind === 'collection' ? 'collections' : 'payouts')} o on o.id = a.order_id
         where a.order_kind = ${kind} and o.trade_no = ${tradeNo} order by a.id`,
  );

const actionsOf = (m: GatewayMerchant, action: string) =>
  db
    .select()
    .from(operatorActions)
    .where(and(eq(operatorActions.merchantId, m.merchant.id), eq(operatorActions.action, action)));

const newMerchant = () =>
  createGatewayMerchant(db, ctx.config.appKey, { roles: ['ROOT'], mode: 'test', channel: false });

beforeAll(async () => {
  ctx = await createTestApp({}, { now, random });
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
});
afterAll(() => ctx?.close());

describe('routing', () => {
  it('sends orders to the highest priority accepting the amount, by weight; `channel` forces one', async () => {
    const m = await newMerchant();
    // Opened without a priority: each new one goes below the ones before (orders stay where they went).
    expect((await openChannel(m, 'main', 'collection')).priority).toBe(0);
    expect((await openChannel(m, 'second', 'collection')).priority).toBe(-1);
    await openChannel(m, 'big', 'collection', { min_amount: '1000.00', priority: 5, weight: 100 });
    expect((await collect(m)).channel).toBe('main');

    const routed = await route(m, 'second', 'collection', { priority: 0, weight: 300 });
    expect(routed.statusCode, routed.body).toBe(201);
    expect(routed.json().data).toMatchObject({
      channel: { code: 'second', priority: 0, weight: 300 },
      before: { priority: -1, weight: 100 },
    });
    const [audited] = await actionsOf(m, 'channel.route');
    expect(audited).toMatchObject({ operatorName: 'Olga Ops', reason: 'routing' });
    expect(audited.detail).toMatchObject({ result: { before: { priority: -1 }, channel: { priority: 0 } } });

    // main and second share priority 0, 100 to 300: a draw below 1/4 goes to main, above to second; the
    // first call reads the table, the next ones choose from it in memory (one statement each).
    const chosen: string[] = [];
    for (const d of [0.1, 0.3, 0.2, 0.9, 0.24, 0.26]) {
      draw = d;
      chosen.push((await collect(m)).channel);
    }
    expect(chosen).toEqual(['main', 'second', 'main', 'second', 'main', 'second']);
    // 1000.00 and more: big, at priority 5, alone takes it; `channel` forces one whatever its rank.
    draw = 0.1;
    expect((await collect(m, { amount: '2000.00' })).channel).toBe('big');
    expect((await collect(m, { amount: '2000.00', channel: 'second' })).channel).toBe('second');
    // An amount no channel takes: refused with the limits of the first.
    const tooBig = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'R-too-big', amount: '60000.00' },
      now,
    });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().code).toBe('amount_out_of_range');

    // A channel taken down: new orders go to the next one at once (the remembered table is stale).
    const closed = await ops('/ops/v1/channels/close', {
      merchant: m.merchant.no,
      mode: 'test',
      code: 'main',
      kind: 'collection',
      reason: 'bank outage',
    });
    expect(closed.statusCode).toBe(201);
    for (const d of [0, 0.1, 0.5]) {
      draw = d;
      expect((await collect(m)).channel).toBe('second');
    }
    // Routed below the other: its orders go there.
    await route(m, 'second', 'collection', { priority: -5 });
    await openChannel(m, 'third', 'collection', { priority: -2 });
    expect((await collect(m)).channel).toBe('third');
  });

  it('routes payouts the same way, each held once on the channel it went to', async () => {
    const m = await newMerchant();
    await fundMerchant(db, m.merchant.id, 1_000_000n);
    await openChannel(m, 'pay-a', 'payout', { priority: 0, weight: 100 });
    await openChannel(m, 'pay-b', 'payout', { priority: 0, weight: 100, fee_rate: '2' });
    await openChannel(m, 'pay-c', 'payout', { priority: -1 });
    const chosen: string[] = [];
    for (const d of [0.2, 0.8, 0.4, 0.6]) {
      draw = d;
      chosen.push((await pay(m)).channel);
    }
    expect(chosen).toEqual(['pay-a', 'pay-b', 'pay-a', 'pay-b']);
    const rows = await db
      .select()
      .from(payouts)
      .where(eq(payouts.merchantId, m.merchant.id))
      .orderBy(payouts.id);
    expect(rows.map((r) => [r.channelCode, r.feeMinor])).toEqual([
      ['pay-a', 100n],
      ['pay-b', 200n],
      ['pay-a', 100n],
      ['pay-b', 200n],
    ]);
    const balance = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now });
    expect(balance.json().data).toMatchObject({ available: '9594.00', locked: '406.00' });
    // Both taken down: the next priority's.
    for (const code of ['pay-a', 'pay-b']) {
      const closed = await ops('/ops/v1/channels/close', {
        merchant: m.merchant.no,
        mode: 'test',
        code,
        kind: 'payout',
        reason: 'outage',
      });
      expect(closed.statusCode).toBe(201);
    }
    expect((await pay(m)).channel).toBe('pay-c');
  });

  it('writes a routed order in one statement while the routing table holds, none once a channel changed', async () => {
    const m = await newMerchant();
    for (const code of ['a', 'b', 'c']) await openChannel(m, code, 'collection', { priority: 0 });
    const settings = { sandboxEnabled: true };
    const table = (await routingTableOf(db, m.merchant.id, 'collection', settings))!;
    expect(table.channels.map((c) => c.code)).toEqual(['a', 'b', 'c']);
    const values = (outTradeNo: string, channelId: number, channelCode: string) => ({
      merchantId: m.merchant.id,
      channelId,
      channelCode,
      tradeNo: `CRT${outTradeNo}`,
      outTradeNo,
      amountMinor: 10_000n,
      feeMinor: 100n,
      currency: m.merchant.currency,
      expiresAt: new Date(clock.getTime() + 30 * 60_000),
      createdAt: clock,
    });
    const made: string[] = [];
    for (const [i, d] of [0.1, 0.5, 0.9].entries()) {
      const seen = routeOf(table, 10_000n, clock, () => d);
      const row = await collectionsRepository.insertOnChannel(
        db,
        values(`RT-${i}`, seen.id, seen.code),
        seen,
        true,
      );
      made.push(row!.channelCode);
    }
    expect(made).toEqual(['a', 'b', 'c']);
    // Another channel of the kind re-weighted: the table is stale, the one statement writes nothing.
    await route(m, 'c', 'collection', { weight: 5 });
    const seen = routeOf(table, 10_000n, clock, () => 0.1);
    expect(seen.code).toBe('a');
    expect(
      await collectionsRepository.insertOnChannel(db, values('RT-stale', seen.id, seen.code), seen, true),
    ).toBeUndefined();
  });

  it('refuses bad routing input naming the field, and writes nothing', async () => {
    const m = await newMerchant();
    await openChannel(m, 'main', 'collection');
    const before = await actionsOf(m, 'channel.route');
    for (const [set, field] of [
      [{ weight: -1 }, 'weight'],
      [{ weight: 0 }, 'weight'],
      [{ weight: 2.5 }, 'weight'],
      [{ priority: 'high' }, 'priority'],
      [{ priority: 10_000_000 }, 'priority'],
      [{}, 'priority'],
    ] as const) {
      const refused = await route(m, 'main', 'collection', set);
      expect(refused.statusCode, JSON.stringify(set)).toBe(422);
      expect(refused.json().errors, JSON.stringify(set)).toHaveProperty(field);
    }
    const opened = await ops('/ops/v1/channels/open', {
      merchant: m.merchant.no,
      mode: 'test',
      code: 'other',
      kind: 'collection',
      fee_rate: '1',
      min_amount: '1.00',
      max_amount: '50000.00',
      weight: -3,
      reason: 'routing test',
    });
    expect(opened.statusCode).toBe(422);
    expect(opened.json().errors).toHaveProperty('weight');
    expect((await route(m, 'nope', 'collection', { weight: 5 })).statusCode).toBe(404);
    // The command line: usage naming the option, nothing sent.
    const cli = opsRunner(
      () => ctx.app,
      () => token,
      'Olga Ops',
    );
    const args = ['--merchant', m.merchant.no, '--mode', 'test', '--code', 'main', '--kind', 'collection'];
    const bad = await cli('channel:route', ...args, '--weight', '-1', '--reason', 'routing');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--weight');
    const good = await cli('channel:route', ...args, '--priority', '3', '--reason', 'routing');
    expect(good.code, good.err).toBe(0);
    expect(good.out).toContain('priority 3 weight 100');
    await route(m, 'main', 'collection', { priority: 0 });
    const rows = await db.select().from(channels).where(eq(channels.merchantId, m.merchant.id));
    expect(rows.map((r) => [r.code, r.priority, r.weight])).toEqual([['main', 0, 100]]);
    expect(await actionsOf(m, 'channel.route')).toHaveLength(before.length + 2);
  });
});

describe('failover', () => {
  let restore: () => void;
  beforeAll(() => {
    restore = useAdapter('sandbox', standIn());
  });
  afterAll(() => restore?.());

  it('a payout failing safely goes to the next channel: two attempts, one payout, sent once each', async () => {
    const m = await newMerchant();
    await fundMerchant(db, m.merchant.id, 1_000_000n);
    await openChannel(m, 'flaky', 'payout', { priority: 2 });
    await openChannel(m, 'steady', 'payout', { priority: 1, fee_rate: '3' });
    const made = await pay(m);
    expect(made.channel).toBe('flaky');
    sent.length = 0;
    failOvers.length = 0;
    await runJob(made.trade_no);
    expect(failOvers).toEqual(['moved']);
    await runJob(made.trade_no);
    expect(sent).toEqual([`${made.trade_no}@flaky`, `${made.trade_no}@steady`]);
    const rows = await db.select().from(payouts).where(eq(payouts.merchantId, m.merchant.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tradeNo: made.trade_no, status: 'success', channelCode: 'steady' });
    // The fee frozen at creation (1% of 100.00 on flaky) stays; the hold was taken once.
    expect(rows[0].feeMinor).toBe(100n);
    expect((await attemptsOf('payout', made.trade_no)).map((a) => [a.channel, a.outcome])).toEqual([
      ['flaky', 'failed'],
      ['steady', 'succeeded'],
    ]);
    // No connection made: the channel's fault, which its health counts.
    const faults = await queryRows<{ channel_fault: boolean }>(
      db,
      sql`select a.channel_fault from channel_attempts a join payouts p on p.id = a.order_id
           where a.order_kind = 'payout' and p.trade_no = ${made.trade_no} order by a.id`,
    );
    expect(faults.map((f) => f.channel_fault)).toEqual([true, false]);
    const balance = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now });
    expect(balance.json().data).toMatchObject({ available: '9899.00', locked: '0.00' });
    // The job again: nothing is sent twice.
    await runJob(made.trade_no);
    expect(sent).toHaveLength(2);
  });

  it('a payout failing unsafely is never sent again: one attempt, left for review with its hold', async () => {
    const m = await newMerchant();
    await fundMerchant(db, m.merchant.id, 1_000_000n);
    await openChannel(m, 'lost', 'payout', { priority: 2 });
    await openChannel(m, 'steady', 'payout', { priority: 1 });
    const made = await pay(m);
    expect(made.channel).toBe('lost');
    sent.length = 0;
    failOvers.length = 0;
    await runJob(made.trade_no);
    await runJob(made.trade_no);
    expect(failOvers).toEqual(['review']);
    expect(sent).toEqual([`${made.trade_no}@lost`]);
    const [row] = await db.select().from(payouts).where(eq(payouts.tradeNo, made.trade_no));
    expect(row).toMatchObject({ status: 'processing', channelCode: 'lost' });
    const attempts = await attemptsOf('payout', made.trade_no);
    expect(attempts).toEqual([
      {
        channel: 'lost',
        outcome: 'processing',
        answer_summary: { failure: FAILURES.lost, review: true },
      },
    ]);
    const [review] = await actionsOf(m, 'payout.review');
    expect(review).toMatchObject({
      operatorName: 'routing',
      detail: { trade_no: made.trade_no, channel: 'lost' },
    });
    const balance = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now });
    expect(balance.json().data).toMatchObject({ available: '9899.00', locked: '101.00' });

    // The operator, having asked the provider, ends it: paid (a payout not in review on a channel that
    // pays by itself is still not theirs to end).
    const endBody = { merchant: m.merchant.no, mode: 'test', bank_reference: 'UTR-1', reason: 'checked' };
    const other = await pay(m);
    expect(other.channel).toBe('lost');
    const notInReview = await ops('/ops/v1/payouts/mark-paid', {
      ...endBody,
      channel: 'lost',
      trade_no: other.trade_no,
    });
    expect(notInReview.statusCode).toBe(409);
    const ended = await ops('/ops/v1/payouts/mark-paid', {
      ...endBody,
      channel: 'lost',
      trade_no: made.trade_no,
    });
    expect(ended.statusCode, ended.body).toBe(201);
    const [paid] = await db.select().from(payouts).where(eq(payouts.tradeNo, made.trade_no));
    expect(paid.status).toBe('success');
    expect((await attemptsOf('payout', made.trade_no)).map((a) => a.outcome)).toEqual(['succeeded']);
  });

  it('a collection failing safely moves to the next channel with a new attempt, the same trade_no', async () => {
    const m = await newMerchant();
    await openChannel(m, 'flaky', 'collection', { priority: 2 });
    await openChannel(m, 'steady', 'collection', { priority: 1 });
    const made = await collect(m);
    expect(made.channel).toBe('flaky');
    failOvers.length = 0;
    await runJob(made.trade_no);
    await runJob(made.trade_no);
    expect(failOvers).toEqual(['moved']);
    const rows = await db.select().from(collections).where(eq(collections.merchantId, m.merchant.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tradeNo: made.trade_no,
      channelCode: 'steady',
      channelRef: `SI-${made.trade_no}`,
      payUrl: `https://pay.example/${made.trade_no}`,
    });
    expect((await attemptsOf('collection', made.trade_no)).map((a) => [a.channel, a.outcome])).toEqual([
      ['flaky', 'failed'],
      ['steady', 'pending'],
    ]);
  });

  it('a payout that named its channel is forced: a safe failure makes one attempt and never moves it', async () => {
    const m = await newMerchant();
    await fundMerchant(db, m.merchant.id, 1_000_000n);
    await openChannel(m, 'flaky', 'payout', { priority: 2 });
    await openChannel(m, 'steady', 'payout', { priority: 1 });
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: { out_trade_no: `RP-${++seq}`, amount: '100.00', channel: 'flaky', ...CN_PAYEE },
      now,
    });
    expect(made.statusCode, made.body).toBe(201);
    const tradeNo = made.json().data.trade_no as string;
    sent.length = 0;
    failOvers.length = 0;
    await runJob(tradeNo);
    await runJob(tradeNo);
    expect(failOvers).toEqual(['stay', 'stay']);
    expect(sent).toEqual([`${tradeNo}@flaky`, `${tradeNo}@flaky`]);
    const [row] = await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNo));
    expect(row).toMatchObject({ status: 'pending', channelCode: 'flaky', routed: false });
    expect((await attemptsOf('payout', tradeNo)).map((a) => [a.channel, a.outcome])).toEqual([
      ['flaky', 'pending'],
    ]);
    // The routed one beside it fails over as before.
    const routed = await pay(m);
    expect(routed.channel).toBe('flaky');
    await runJob(routed.trade_no);
    await runJob(routed.trade_no);
    const [moved] = await db.select().from(payouts).where(eq(payouts.tradeNo, routed.trade_no));
    expect(moved).toMatchObject({ status: 'success', channelCode: 'steady', routed: true });
  });

  it('a collection that named its channel is forced: a safe failure leaves it on that channel', async () => {
    const m = await newMerchant();
    await openChannel(m, 'flaky', 'collection', { priority: 2 });
    await openChannel(m, 'steady', 'collection', { priority: 1 });
    const made = await collect(m, { channel: 'flaky' });
    expect(made.channel).toBe('flaky');
    sent.length = 0;
    failOvers.length = 0;
    await runJob(made.trade_no);
    expect(failOvers).toEqual(['stay']);
    expect(sent).toEqual([`${made.trade_no}@flaky`]);
    const [row] = await db.select().from(collections).where(eq(collections.tradeNo, made.trade_no));
    expect(row).toMatchObject({ channelCode: 'flaky', status: 'to_be_paid', routed: false });
    expect((await attemptsOf('collection', made.trade_no)).map((a) => [a.channel, a.outcome])).toEqual([
      ['flaky', 'pending'],
    ]);
  });

  it('a safe failure with no other channel leaves the order where it is', async () => {
    const m = await newMerchant();
    await openChannel(m, 'flaky', 'collection');
    const made = await collect(m);
    failOvers.length = 0;
    await runJob(made.trade_no);
    expect(failOvers).toEqual(['stay']);
    expect((await attemptsOf('collection', made.trade_no)).map((a) => a.outcome)).toEqual(['pending']);
  });
});

describe('channel health', () => {
  it('cools a failing channel down, gives it a small share after, and records it recovered', async () => {
    const m = await newMerchant();
    await openChannel(m, 'main', 'collection', { priority: 1 });
    await openChannel(m, 'backup', 'collection', { priority: 0 });
    const cooledAt = async () =>
      (
        await db
          .select()
          .from(channels)
          .where(and(eq(channels.merchantId, m.merchant.id), eq(channels.code, 'main')))
      )[0].cooldownUntil;
    // The channel's faults, as its adapter reports them: no connection made, so each order fails over.
    const fault = (tradeNo: string) =>
      ctx.app.services.collections.failOver(tradeNo, { stage: 'connect', code: 'ECONNREFUSED' });
    // Nine failures of ten ended attempts say nothing yet; the tenth ended one decides.
    const first: string[] = [];
    for (let i = 0; i < 10; i++) first.push((await collect(m)).trade_no);
    for (const tradeNo of first.slice(0, 9)) expect(await fault(tradeNo)).toBe('moved');
    expect(await cooledAt()).toBeNull();
    expect((await collect(m)).channel).toBe('main');
    await fault(first[9]);
    expect(await cooledAt()).toEqual(new Date(clock.getTime() + 5 * 60_000));
    const [cooled] = await actionsOf(m, 'channel.cooled_down');
    expect(cooled).toMatchObject({
      operatorName: 'routing',
      detail: { channel: 'main', kind: 'collection', attempts: 10, failures: 10 },
    });
    // Cooling down: skipped, whatever the draw.
    for (const d of [0, 0.05, 0.99]) {
      draw = d;
      expect((await collect(m)).channel).toBe('backup');
    }
    // After the cool-down: a tenth of its weight (draws under 0.1), the rest to the next priority.
    clock = new Date(clock.getTime() + 5 * 60_000 + 1000);
    draw = 0.5;
    expect((await collect(m)).channel).toBe('backup');
    draw = 0.05;
    const probation: string[] = [];
    for (let i = 0; i < 10; i++) {
      const made = await collect(m);
      expect(made.channel).toBe('main');
      probation.push(made.trade_no);
    }
    for (const tradeNo of probation) {
      await ctx.app.services.collections.finish(tradeNo, 'paid');
    }
    expect(await cooledAt()).toBeNull();
    expect(await actionsOf(m, 'channel.recovered')).toHaveLength(1);
    draw = 0.5;
    expect((await collect(m)).channel).toBe('main');
  });

  it('declines are not the channel’s failures: orders failed by the payer or the bank never cool it down', async () => {
    const m = await newMerchant();
    await fundMerchant(db, m.merchant.id, 1_000_000n);
    await openChannel(m, 'main', 'collection', { priority: 1 });
    await openChannel(m, 'backup', 'collection', { priority: 0 });
    await openChannel(m, 'pay-main', 'payout', { priority: 1 });
    await openChannel(m, 'pay-backup', 'payout', { priority: 0 });
    draw = 0;
    // Twelve collections the payer did not pay, twelve payouts to an account the bank does not know.
    for (let i = 0; i < 12; i++) {
      const made = await collect(m);
      expect(made.channel).toBe('main');
      await ctx.app.services.collections.finish(made.trade_no, 'failed');
      const payout = await pay(m, '6222020000000000');
      expect(payout.channel).toBe('pay-main');
      await runJob(payout.trade_no);
      await runJob(payout.trade_no);
    }
    const rows = await db.select().from(payouts).where(eq(payouts.merchantId, m.merchant.id));
    expect(rows.map((r) => r.status)).toEqual(Array(12).fill('failed'));
    const mine = await db
      .select()
      .from(channels)
      .where(eq(channels.merchantId, m.merchant.id))
      .orderBy(channels.id);
    expect(mine.map((c) => [c.code, c.cooldownUntil])).toEqual([
      ['main', null],
      ['backup', null],
      ['pay-main', null],
      ['pay-backup', null],
    ]);
    expect(await actionsOf(m, 'channel.cooled_down')).toEqual([]);
    // Every attempt ended failed, none by the channel's fault; the next orders still go to main.
    const faults = await queryRows<{ outcome: string; channel_fault: boolean; n: number }>(
      db,
      sql`select outcome, channel_fault, count(*)::int as n from channel_attempts
           where merchant_id = ${m.merchant.id} group by outcome, channel_fault`,
    );
    expect(faults).toEqual([{ outcome: 'failed', channel_fault: false, n: 24 }]);
    expect((await collect(m)).channel).toBe('main');
    expect((await pay(m)).channel).toBe('pay-main');
  });
});
