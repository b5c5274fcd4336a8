import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallbackEventType } from '@paydesk/shared/collections/collections.schemas.ts';
import { queryRows } from '../../src/db/client.ts';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Webhook redelivery (DESIGN 6): the retry schedule over 3 days with an injected clock, and Settings >
// Webhook deliveries: the merchant's undelivered events of its mode for 30 days, resent in bulk (by type and
// time range) or one by one to a real HTTP receiver, under the same webhook-id.

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

let ctx: TestContext;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const setClock = (at: Date) => {
  clock = at;
};

let receiver: Receiver;
/** What the receiver answers: 500 while failing. */
let failing = true;

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  receiver = await startReceiver('/hooks', () => (failing ? 500 : 200));
});

afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  failing = true;
});

const callbacks = () => ctx.app.services.callbacks;

/** An event of the merchant's mode row, written as a state change writes it (outbox + first job). */
async function event(m: GatewayMerchant, type: CallbackEventType, tradeNo: string, at: Date) {
  setClock(at);
  const row = await ctx.database.db.transaction((tx) =>
    callbacks().enqueue(tx, {
      merchantId: m.merchant.id,
      type,
      refType: type.startsWith('payout.') ? 'payout' : type.startsWith('refund.') ? 'refund' : 'collection',
      refId: Number(tradeNo.replace(/\D/g, '')),
      url: null,
      data: { trade_no: tradeNo, status: 'paid' },
    }),
  );
  return row!.id;
}

/** An event whose first attempt failed (still failing: its next retry is waiting). */
async function failedOnce(m: GatewayMerchant, type: CallbackEventType, tradeNo: string, at: Date) {
  const id = await event(m, type, tradeNo, at);
  expect(await callbacks().attempt(id)).toMatchObject({ ok: false, statusCode: 500 });
  return id;
}

type DeliveryJob = { job: string; id: string; at: string | null };

/** Every delivery job queued so far, oldest first: the event and the time it was scheduled for. */
const deliveryJobs = () =>
  queryRows<DeliveryJob>(
    ctx.database.db,
    sql`select id::text as job, data->>'id' as id, data->>'at' as at from pgboss.job
        where name = 'callback.deliver' order by created_on, id`,
  );

/** Each event's number of delivery jobs queued so far. */
async function jobsPerEvent(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { id } of await deliveryJobs()) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/**
 * Runs the jobs queued since `before` (a deliveryJobs() snapshot) as the worker does (jobs/workers.ts:
 * the event and the time it was scheduled for); answers the events that got an attempt.
 */
async function runJobsSince(before: DeliveryJob[]): Promise<string[]> {
  const seen = new Set(before.map((j) => j.job));
  const attempted: string[] = [];
  for (const job of await deliveryJobs()) {
    if (seen.has(job.job)) continue;
    if (await callbacks().attempt(job.id, job.at ?? undefined)) attempted.push(job.id);
  }
  return attempted;
}

const consoleOf = async (m: GatewayMerchant, role: 'ROOT' | 'VIEWER' | 'FINANCE' = 'ROOT') => {
  const client = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
  client.mode = m.merchant.mode === 'test' ? 'test' : undefined;
  return client;
};

const listIds = async (client: TestClient, query = '') => {
  const response = await client.get(`/api/merchant/callbacks${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((e: { id: string }) => e.id);
};

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

describe('the retry schedule (DESIGN 6)', () => {
  it('retries a failing event at 15 s ... 24 h, 36 h, 48 h and 72 h after the first attempt, then gives it up', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const first = new Date(Math.floor(Date.now() / 1000) * 1000);
    const id = await event(m, 'collection.paid', 'C2026000000001', first);
    const dueAt = [15, 60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600, 36 * 3600, 48 * 3600]
      .map((s) => s * SECOND)
      .concat(72 * HOUR);
    for (let attempt = 1; attempt <= 13; attempt++) {
      const result = await callbacks().attempt(id);
      expect(result).toMatchObject({ attempt, ok: false, statusCode: 500 });
      if (attempt === 13) {
        expect(result!.nextAttemptAt).toBeNull();
        break;
      }
      // The gap to the next point of the schedule, +- 10% jitter.
      const gap = dueAt[attempt - 1] - (dueAt[attempt - 2] ?? 0);
      const delay = result!.nextAttemptAt!.getTime() - clock.getTime();
      expect(delay).toBeGreaterThanOrEqual(gap * 0.9);
      expect(delay).toBeLessThanOrEqual(gap * 1.1);
      setClock(result!.nextAttemptAt!);
    }
    // 13 attempts over about 3 days, then nothing more: the job of a given-up event does nothing.
    const span = clock.getTime() - first.getTime();
    expect(span).toBeGreaterThan(72 * HOUR * 0.9);
    expect(span).toBeLessThan(72 * HOUR * 1.1);
    expect(await callbacks().attempt(id)).toBeNull();
    expect(receiver.received).toHaveLength(13);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));

    // Given up: listed, with its last answer.
    const root = await consoleOf(m);
    const list = (await root.get('/api/merchant/callbacks')).json();
    expect(list.data).toEqual([
      {
        id,
        type: 'collection.paid',
        ref_type: 'collection',
        trade_no: 'C2026000000001',
        url: receiver.url,
        status: 'failed',
        attempts: 13,
        last_status_code: 500,
        last_error: null,
        last_response_excerpt: 'try again',
        last_attempt_at: clock.toISOString(),
        next_attempt_at: null,
        created_at: first.toISOString(),
      },
    ]);
    expect(list.meta).toMatchObject({ total: 1, next_cursor: null, mode: 'live' });
  });

  it('stops retrying once an attempt succeeds, and the event leaves the list', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const id = await event(m, 'payout.succeeded', 'P2026000000001', new Date());
    const root = await consoleOf(m);
    // Queued but not tried yet: not an undelivered event.
    expect(await listIds(root)).toEqual([]);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = await callbacks().attempt(id);
      expect(result).toMatchObject({ attempt, ok: false });
      setClock(result!.nextAttemptAt!);
    }
    const failingNow = (await root.get('/api/merchant/callbacks')).json().data;
    expect(failingNow).toMatchObject([
      { id, status: 'pending', attempts: 3, next_attempt_at: clock.toISOString() },
    ]);
    failing = false;
    expect(await callbacks().attempt(id)).toMatchObject({ attempt: 4, ok: true, nextAttemptAt: null });
    expect(await callbacks().attempt(id)).toBeNull();
    expect(receiver.received).toHaveLength(4);
    expect(await listIds(root)).toEqual([]);
  });
});

describe('GET /api/merchant/callbacks', () => {
  it("lists the merchant's undelivered events of the current mode, of the last 30 days, filtered by type and time", async () => {
    const live = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
      roles: ['ROOT', 'VIEWER', 'FINANCE'],
    });
    const test = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
      mode: 'test',
    });
    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
    });
    const today = new Date(Math.floor(Date.now() / DAY) * DAY + 12 * HOUR);
    const daysAgo = (n: number) => new Date(today.getTime() - n * DAY);

    const old = await failedOnce(live, 'collection.paid', 'C2026000000010', daysAgo(31));
    const paid29 = await failedOnce(live, 'collection.paid', 'C2026000000011', daysAgo(29));
    const payout5 = await failedOnce(live, 'payout.failed', 'P2026000000012', daysAgo(5));
    const paid2 = await failedOnce(live, 'collection.paid', 'C2026000000013', daysAgo(2));
    // A refund's event: of its collection (its trade_no), seen with collection:view.
    const refund3 = await failedOnce(live, 'refund.failed', 'C2026000000017', daysAgo(3));
    const delivered = await event(live, 'collection.paid', 'C2026000000014', daysAgo(1));
    failing = false;
    await callbacks().attempt(delivered);
    failing = true;
    const testOnly = await failedOnce(test, 'collection.closed', 'C2026000000015', daysAgo(1));
    const othersOnly = await failedOnce(other, 'collection.paid', 'C2026000000016', daysAgo(1));
    setClock(today);

    const root = await consoleOf(live);
    // Newest first; delivered ones, test mode's, the other merchant's and those over 30 days are not listed.
    expect(await listIds(root)).toEqual([paid2, refund3, payout5, paid29]);
    expect(await listIds(root, '?type=collection.paid')).toEqual([paid2, paid29]);
    expect(await listIds(root, `?start_time=${isoDay(daysAgo(6))}&end_time=${isoDay(daysAgo(3))}`)).toEqual([
      refund3,
      payout5,
    ]);
    // A range reaching back further still ends at 30 days.
    expect(await listIds(root, `?start_time=${isoDay(daysAgo(40))}&type=collection.paid`)).not.toContain(old);
    // A day later the 29-day-old event has turned 30 and leaves the list.
    setClock(new Date(today.getTime() + DAY + HOUR));
    expect(await listIds(root)).toEqual([paid2, refund3, payout5]);
    setClock(today);

    // Keyset pages: the cursor of page 1 gives page 2.
    const page1 = (await root.get('/api/merchant/callbacks?per_page=2')).json();
    expect(page1.data.map((e: { id: string }) => e.id)).toEqual([paid2, refund3]);
    expect(page1.meta).toMatchObject({ total: 4, page: 1, per_page: 2 });
    const page2 = await root.get(
      `/api/merchant/callbacks?per_page=2&page=2&cursor=${page1.meta.next_cursor}`,
    );
    expect(page2.json().data.map((e: { id: string }) => e.id)).toEqual([payout5, paid29]);
    expect(page2.json().meta.next_cursor).toBeNull();

    expect((await root.get('/api/merchant/callbacks?type=refund.failed')).json().data).toMatchObject([
      { id: refund3, type: 'refund.failed', ref_type: 'refund', trade_no: 'C2026000000017' },
    ]);

    // Test mode shows test mode's events only (the same users, X-Mode: test).
    const testRoot = await consoleOf(test);
    const testList = (await testRoot.get('/api/merchant/callbacks')).json();
    expect(testList.data.map((e: { id: string }) => e.id)).toEqual([testOnly]);
    expect(testList.meta.mode).toBe('test');
    expect(await listIds(await consoleOf(other))).toEqual([othersOnly]);
    // A VIEWER sees the list (as the orders); it may not resend (the permission matrix checks 403).
    expect(await listIds(await consoleOf(live, 'VIEWER'))).toEqual([paid2, refund3, payout5, paid29]);
  });

  it('refuses bad filters with 422 and its code', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const root = await consoleOf(m);
    for (const query of [
      'type=bogus',
      'start_time=2026-02-30',
      'start_time=2026-03-02&end_time=2026-03-01',
      'per_page=1000',
      `cursor=${Buffer.from('123.not-an-event').toString('base64url')}`,
    ]) {
      const response = await root.get(`/api/merchant/callbacks?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().code, query).toMatch(/^(validation_failed|invalid_cursor)$/);
    }
  });
});

describe('resending', () => {
  it('resends every matching undelivered event in bulk (by type and range) to the receiver, once per click', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
    });
    const today = new Date(Math.floor(Date.now() / DAY) * DAY + 12 * HOUR);
    const daysAgo = (n: number) => new Date(today.getTime() - n * DAY);
    const a = await failedOnce(m, 'collection.paid', 'C2026000000021', daysAgo(3));
    const b = await failedOnce(m, 'collection.paid', 'C2026000000022', daysAgo(2));
    const outOfRange = await failedOnce(m, 'collection.paid', 'C2026000000023', daysAgo(10));
    const otherType = await failedOnce(m, 'payout.succeeded', 'P2026000000024', daysAgo(2));
    const othersEvent = await failedOnce(other, 'collection.paid', 'C2026000000025', daysAgo(2));
    // Given up: 13 failed attempts.
    const givenUp = await event(m, 'collection.paid', 'C2026000000026', daysAgo(4));
    for (let i = 0; i < 13; i++) await callbacks().attempt(givenUp);
    setClock(today);
    const root = await consoleOf(m);
    receiver.received.length = 0;
    failing = false;

    const before = await deliveryJobs();
    const body = { type: 'collection.paid', from: isoDay(daysAgo(5)), to: isoDay(daysAgo(1)) };
    // A double click: two calls at once queue each event once between them.
    const clicks = await Promise.all([
      root.post('/api/merchant/callbacks/resend', body),
      root.post('/api/merchant/callbacks/resend', body),
    ]);
    for (const click of clicks) expect(click.statusCode, click.body).toBe(200);
    expect(clicks.map((c) => c.json().data.resent).reduce((x: number, y: number) => x + y)).toBe(3);
    expect(clicks.map((c) => c.json().data.has_more)).toEqual([false, false]);
    // And a later one: those are queued already, none goes out twice.
    const again = await root.post('/api/merchant/callbacks/resend', body);
    expect(again.json()).toEqual({ data: { resent: 0, has_more: false } });

    const ran = await runJobsSince(before);
    expect(ran.sort()).toEqual([a, b, givenUp].sort());
    // Delivered to the receiver under each event's own webhook-id, each once.
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([a, b, givenUp].sort());
    expect(JSON.parse(receiver.received.find((r) => r.headers['webhook-id'] === a)!.body)).toMatchObject({
      id: a,
      type: 'collection.paid',
      data: { trade_no: 'C2026000000021' },
    });
    // Delivered events leave the list; the others stay, and the other merchant's was never touched.
    expect(await listIds(root)).toEqual([otherType, outOfRange]);
    expect(await listIds(await consoleOf(other))).toEqual([othersEvent]);
    const detail = (await root.get('/api/merchant/callbacks')).json().data;
    expect(detail.map((e: { attempts: number }) => e.attempts)).toEqual([1, 1]);
  });

  it('resends one event (same webhook-id), once per click, and answers 404 for an event not of this merchant and mode', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
    });
    const mine = await failedOnce(m, 'payout.failed', 'P2026000000031', new Date());
    const theirs = await failedOnce(other, 'payout.failed', 'P2026000000032', new Date());
    const root = await consoleOf(m);
    failing = false;
    receiver.received.length = 0;

    const before = await deliveryJobs();
    const resent = await root.post(`/api/merchant/callbacks/${mine}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().data).toMatchObject({
      id: mine,
      status: 'pending',
      next_attempt_at: clock.toISOString(),
      attempts: [{ attempt: 1, status_code: 500 }],
    });
    expect((await root.post(`/api/merchant/callbacks/${mine}/resend`)).statusCode).toBe(200);
    expect(await runJobsSince(before)).toEqual([mine]);
    const afterRun = await jobsPerEvent();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([mine]);
    expect(await listIds(root)).toEqual([]);

    for (const id of [theirs, 'evt_doesnotexist', 'not-an-event', '1']) {
      const response = await root.post(`/api/merchant/callbacks/${id}/resend`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    // The same company's test mode does not see a live event.
    const testClient = await consoleOf(m);
    testClient.mode = 'test';
    expect((await testClient.post(`/api/merchant/callbacks/${mine}/resend`)).statusCode).toBe(404);
    // None of the refused calls queued anything.
    expect(await jobsPerEvent()).toEqual(afterRun);
    expect(receiver.received).toHaveLength(1);
  });

  it('a resend of a still-failing event replaces its waiting retry: the stale retry job attempts nothing', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const start = new Date();
    const id = await event(m, 'collection.paid', 'C2026000000051', start);
    // Five failures, each run by its job: the sixth attempt waits, due 1 h after the first.
    let at: string | undefined;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const result = await callbacks().attempt(id, at);
      expect(result).toMatchObject({ attempt, ok: false });
      at = result!.nextAttemptAt!.toISOString();
      if (attempt < 5) setClock(result!.nextAttemptAt!);
    }
    const waiting = (await deliveryJobs()).at(-1)!;
    expect(waiting).toEqual({ job: expect.any(String), id, at });
    const root = await consoleOf(m);
    setClock(new Date(clock.getTime() + 60_000));
    const afterRetries = await deliveryJobs();
    expect((await root.post(`/api/merchant/callbacks/${id}/resend`)).statusCode).toBe(200);
    receiver.received.length = 0;
    // The resend's job runs (still failing: the next retry follows the schedule)...
    expect(await runJobsSince(afterRetries)).toEqual([id]);
    expect(receiver.received).toHaveLength(1);
    // ...and the retry job the resend replaced, when its time comes, sends nothing.
    setClock(new Date(waiting.at!));
    expect(await callbacks().attempt(id, waiting.at!)).toBeNull();
    expect(receiver.received).toHaveLength(1);
    const row = (await root.get('/api/merchant/callbacks')).json().data[0];
    expect(row).toMatchObject({ id, attempts: 6, status: 'pending' });
  });

  it('housekeeping keeps undelivered events: still listed after the sweep', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const today = new Date();
    const id = await failedOnce(
      m,
      'collection.failed',
      'C2026000000061',
      new Date(today.getTime() - 29 * DAY),
    );
    setClock(today);
    await ctx.app.services.housekeeping();
    expect(await listIds(await consoleOf(m))).toEqual([id]);
  });

  it('refuses a bad bulk resend with 422 and queues nothing', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    await failedOnce(m, 'collection.paid', 'C2026000000041', new Date());
    const root = await consoleOf(m);
    const before = await jobsPerEvent();
    for (const body of [
      {},
      { from: '2026-01-01' },
      { from: '2026-01-02', to: '2026-01-01' },
      { from: 'yesterday', to: '2026-01-01' },
      { type: 'bogus', from: '2026-01-01', to: '2026-01-02' },
    ]) {
      const response = await root.post('/api/merchant/callbacks/resend', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().code).toBe('validation_failed');
    }
    expect(await jobsPerEvent()).toEqual(before);
  });
});
