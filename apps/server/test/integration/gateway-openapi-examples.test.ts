import type { LightMyRequestResponse } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLBACK_EVENT_TYPES,
  type CallbackEventType,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/client.ts';
import { callbackEvents, channels, merchants } from '../../src/db/schema/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  type GatewayMerchant,
  gatewayCall,
  openPayoutChannel,
} from '../factories/gateway.ts';
import { createTestApp, type TestContext, testConfig, testDatabaseKind } from '../helpers/test-app.ts';

// Every example /gateway/openapi.json gives is a real answer (issue 39): for each one, successes, refusals
// and callbacks alike, the call that produces it is made against the app, and the real answer must equal
// the example once the values that differ on every run (trade and refund numbers, times, ids, request ids)
// are replaced by the same placeholders on both sides. A document example without its real call here
// fails the first test, so a new example cannot go unchecked.
//
// Why a test over the hand-written examples rather than examples generated from recorded answers: the
// examples stay readable, stable values in the source (ORDER-1001, 100.00, pay.example.com) that the
// reference and the generated clients show, with no recording step to run and commit after every change;
// and a wrong example or a changed answer (a reworded message, a new field) fails here, naming both.
//
// The server runs with PUBLIC_URL=https://pay.example.com, as the examples' pay_url shows. Two answers
// need a second connection to PostgreSQL (PGlite is one connection): 409 idempotency_key_in_flight (the
// key's lock held by another transaction) and 503 service_unavailable (the pool's one connection held);
// they are checked in the integration:postgres project only.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Real = { status: number; body: unknown };
type Producer = () => Promise<Real>;

const PUBLIC_URL = 'https://pay.example.com';
/** Refused calls an address may make a minute here (API_RATE_PER_MINUTE): the address's 429 is in reach, and the console calls from 127.0.0.1 (pay pages, ops) stay well under it. */
const ADDRESS_FAILURES = 200;

let ctx: TestContext;
let document: Json;
let operatorToken: string;
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;

beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL, API_RATE_PER_MINUTE: String(ADDRESS_FAILURES) }, { now });
  document = (await ctx.app.inject({ method: 'GET', url: '/gateway/openapi.json' })).json();
  operatorToken = await ensureLocalOperatorToken(ctx.database.db, ctx.config.dataDir);
});

afterAll(async () => {
  await ctx?.close();
});

// ---- Normalising: the same placeholders on both sides.

const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** Trade numbers (C..., P...) and refund numbers (R...), wherever they appear (pay_url, messages). */
const NUMBER = /\b([CPR])\d{12,}\b/g;
const VOLATILE_KEYS = new Set(['request_id', 'id']);

function normalise(value: unknown, key?: string): unknown {
  if (key !== undefined && VOLATILE_KEYS.has(key) && typeof value === 'string') return `<${key}>`;
  if (typeof value === 'string') return value.replace(TIME, '<time>').replace(NUMBER, '$1<number>');
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  }
  return value;
}

// ---- The document's examples, by key: `METHOD path status [example name]`, `callback type`.

function documentExamples(): Map<string, { status?: number; value: unknown }> {
  const examples = new Map<string, { status?: number; value: unknown }>();
  for (const [route, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      for (const [status, response] of Object.entries((operation as Json).responses as Json)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        const key = `${method.toUpperCase()} ${route} ${status}`;
        if (media.example !== undefined) examples.set(key, { status: Number(status), value: media.example });
        for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) {
          examples.set(`${key} ${name}`, { status: Number(status), value: example.value });
        }
      }
    }
  }
  for (const [type, hook] of Object.entries(document.webhooks as Json)) {
    examples.set(`callback ${type}`, { value: hook.post.requestBody.content['application/json'].example });
  }
  return examples;
}

// ---- Merchants and calls as the examples show them.

const answer = (response: LightMyRequestResponse): Real => ({
  status: response.statusCode,
  body: response.json(),
});

let ipSequence = 0;
/** An address of its own for a refused call: refused calls count against their address. */
const strangerIp = () => `192.0.2.${(ipSequence++ % 250) + 1}`;

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}`;

/**
 * A test-mode merchant as the examples' story has it: the sandbox-cny collection channel (0.6%), the
 * sandbox-pay payout channel (0.4%), `fundsMinor` available.
 */
async function merchant(fundsMinor = 0n, options: { payouts?: boolean; collections?: boolean } = {}) {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
    mode: 'test',
    notifyUrl: 'http://127.0.0.1:9/hooks',
    channel: options.collections === false ? false : { code: 'sandbox-cny', feeRatePpm: 6_000 },
  });
  if (options.payouts !== false) {
    await openPayoutChannel(ctx.database.db, m.merchant.id, { feeRatePpm: 4_000, fixedFeeMinor: 0n });
  }
  if (fundsMinor > 0n) await fundMerchant(ctx.database.db, m.merchant.id, fundsMinor);
  return m;
}

const call = (
  m: GatewayMerchant,
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof gatewayCall>[4] = {},
) => gatewayCall(ctx.app, m, method, url, { now, ...options });

const COLLECTION_BODY = { out_trade_no: 'ORDER-1001', amount: '100.00' };
const PAYOUT_BODY = {
  out_trade_no: 'PAYOUT-1001',
  amount: '500.00',
  account_type: 'individual',
  bank_code: 'ICBC',
  bank_name: 'ICBC',
  branch_name: 'Shanghai',
  payee_name: 'Zhang San',
  account_no: '6222020200121234',
};
const REFUND_BODY = { out_refund_no: 'REFUND-1001', amount: '30.00', reason: 'One item out of stock' };

async function createCollection(m: GatewayMerchant, body: Json = COLLECTION_BODY) {
  const response = await call(m, 'POST', '/gateway/v1/collections', { body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as Json;
}

/** Pays (or fails) the order on the sandbox's pay page, as the payer does. */
async function payOnSandbox(order: Json, result: 'paid' | 'failed' = 'paid', app = ctx.app) {
  const response = await app.inject({
    method: 'POST',
    url: new URL(order.pay_url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `result=${result}`,
  });
  expect(response.statusCode, response.body).toBe(303);
}

const ops = async (url: string, body: Json) => {
  const response = await ctx.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${operatorToken}`, 'x-operator': 'Rita Risk' },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
};

/**
 * The examples' story: merchant `s` created ORDER-1001 (to be paid) and PAYOUT-1001 from 9,902.00
 * (leaving the example's balance); merchant `r` was paid its ORDER-1001 and refunded REFUND-1001 from it.
 */
async function story() {
  const s = await merchant(990_200n);
  const created = answer(await call(s, 'POST', '/gateway/v1/collections', { body: COLLECTION_BODY }));
  const payoutCreated = answer(
    await call(s, 'POST', '/gateway/v1/payouts', {
      body: PAYOUT_BODY,
      headers: { 'idempotency-key': 'payout-1001' },
    }),
  );
  const balance = answer(await call(s, 'GET', '/gateway/v1/balance'));
  const r = await merchant(100_000n);
  const paid = await createCollection(r);
  await payOnSandbox(paid);
  const refundCreated = answer(
    await call(r, 'POST', `/gateway/v1/collections/${paid.trade_no}/refunds`, {
      body: REFUND_BODY,
      headers: { 'idempotency-key': 'refund-1001' },
    }),
  );
  const collection = (created.body as Json).data;
  const payout = (payoutCreated.body as Json).data;
  const refund = (refundCreated.body as Json).data;
  return { s, r, paid, collection, payout, refund, created, payoutCreated, refundCreated, balance };
}
type Story = Awaited<ReturnType<typeof story>>;

let shared: Promise<Story> | undefined;
/** One story for the answers that only read it. */
const sharedStory = () => (shared ??= story());

/** A call each operation answers with its success, on a story's objects: the base of its refusals. */
function validCall(key: string, st: Story) {
  const calls: Record<
    string,
    () => { m: GatewayMerchant; method: 'GET' | 'POST'; url: string; body?: Json }
  > = {
    'POST /gateway/v1/collections': () => ({
      m: st.s,
      method: 'POST',
      url: '/gateway/v1/collections',
      body: { out_trade_no: unique('ORDER'), amount: '1.00' },
    }),
    'GET /gateway/v1/collections': () => ({
      m: st.s,
      method: 'GET',
      url: '/gateway/v1/collections?out_trade_no=ORDER-1001',
    }),
    'GET /gateway/v1/collections/{trade_no}': () => ({
      m: st.s,
      method: 'GET',
      url: `/gateway/v1/collections/${st.collection.trade_no}`,
    }),
    'POST /gateway/v1/collections/{trade_no}/refunds': () => ({
      m: st.r,
      method: 'POST',
      url: `/gateway/v1/collections/${st.paid.trade_no}/refunds`,
      body: { out_refund_no: unique('REFUND'), amount: '1.00' },
    }),
    'GET /gateway/v1/refunds': () => ({
      m: st.r,
      method: 'GET',
      url: '/gateway/v1/refunds?out_refund_no=REFUND-1001',
    }),
    'GET /gateway/v1/refunds/{refund_no}': () => ({
      m: st.r,
      method: 'GET',
      url: `/gateway/v1/refunds/${st.refund.refund_no}`,
    }),
    'POST /gateway/v1/payouts': () => ({
      m: st.s,
      method: 'POST',
      url: '/gateway/v1/payouts',
      body: { ...PAYOUT_BODY, out_trade_no: unique('PAYOUT'), amount: '1.00' },
    }),
    'GET /gateway/v1/payouts': () => ({
      m: st.s,
      method: 'GET',
      url: '/gateway/v1/payouts?out_trade_no=PAYOUT-1001',
    }),
    'GET /gateway/v1/payouts/{trade_no}': () => ({
      m: st.s,
      method: 'GET',
      url: `/gateway/v1/payouts/${st.payout.trade_no}`,
    }),
    'GET /gateway/v1/balance': () => ({ m: st.s, method: 'GET', url: '/gateway/v1/balance' }),
  };
  const made = calls[key];
  if (!made) throw new Error(`no valid call for ${key}`);
  return made();
}

/** The operation's valid call, changed by `options` (its merchant may be another). */
async function variant(
  key: string,
  options: Parameters<typeof gatewayCall>[4] & { merchant?: GatewayMerchant } = {},
  st?: Story,
) {
  const base = validCall(key, st ?? (await sharedStory()));
  const { merchant: other, ...rest } = options;
  return call(other ?? base.m, base.method, base.url, {
    ...(base.body && rest.payload === undefined ? { body: base.body } : {}),
    ...rest,
  });
}

// ---- What only PostgreSQL can show: a second connection holding what the call needs.

/** Runs `during` while another connection holds the advisory lock of the merchant's Idempotency-Key. */
async function withKeyLocked<T>(m: GatewayMerchant, key: string, during: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ctx.database.url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${m.merchant.id}:${key}`]);
    return await during();
  } finally {
    await client.query('rollback');
    await client.end();
  }
}

/** The answers of `calls` on an app whose one database connection is held by another transaction. */
async function withPoolExhausted(calls: (app: TestContext['app']) => Promise<Real[]>): Promise<Real[]> {
  const database = await openDatabase({ url: ctx.database.url, poolSize: 1, acquireTimeoutMs: 200 });
  const app = await buildApp({ config: testConfig({ PUBLIC_URL }), database, logger: false, now });
  await app.ready();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder = database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    holding();
    await gate;
  });
  try {
    // The holder's failure (no connection to be had at all) ends the wait too.
    await Promise.race([held, holder]);
    return await calls(app);
  } finally {
    release();
    await holder.catch(() => undefined);
    await app.close();
    await database.close();
  }
}

// ---- The real call of every example.

const OPERATIONS = [
  'POST /gateway/v1/collections',
  'GET /gateway/v1/collections',
  'GET /gateway/v1/collections/{trade_no}',
  'POST /gateway/v1/collections/{trade_no}/refunds',
  'GET /gateway/v1/refunds',
  'GET /gateway/v1/refunds/{refund_no}',
  'POST /gateway/v1/payouts',
  'GET /gateway/v1/payouts',
  'GET /gateway/v1/payouts/{trade_no}',
  'GET /gateway/v1/balance',
];

/** A merchant that has spent its quota of signed calls this minute (3000, the server's default). */
let quotaSpent: Promise<Story> | undefined;
async function overQuota(): Promise<Story> {
  quotaSpent ??= (async () => {
    const st = await story();
    // The story spent some; the rest in batches, until one is refused.
    for (let refused = false; !refused;) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, () => call(st.s, 'GET', '/gateway/v1/balance')),
      );
      refused = batch.some((response) => response.statusCode === 429);
    }
    // merchant r shares nothing with s: give it s's place in the calls.
    return { ...st, r: st.s };
  })();
  return quotaSpent;
}

/** An address that has used up its refused calls this minute. */
const REFUSED_ADDRESS = '198.51.100.9';
let addressSpent: Promise<void> | undefined;
async function addressOverLimit() {
  addressSpent ??= (async () => {
    for (let i = 0; i <= ADDRESS_FAILURES; i++) {
      await ctx.app.inject({ method: 'GET', url: '/gateway/v1/balance', remoteAddress: REFUSED_ADDRESS });
    }
  })();
  return addressSpent;
}

let disabled: Promise<GatewayMerchant> | undefined;
async function disabledMerchant() {
  disabled ??= (async () => {
    const m = await merchant();
    await ctx.database.db
      .update(merchants)
      .set({ status: 'disabled' })
      .where(eq(merchants.id, m.liveMerchant.id));
    return m;
  })();
  return disabled;
}

function commonProducers(key: string): Record<string, Producer> {
  return {
    [`${key} 401 signature_header_invalid`]: async () =>
      answer(await variant(key, { nonce: 'short', ip: strangerIp() })),
    [`${key} 401 signature_invalid`]: async () =>
      answer(await variant(key, { headers: { 'x-signature': 'f'.repeat(64) }, ip: strangerIp() })),
    [`${key} 401 timestamp_out_of_window`]: async () =>
      answer(await variant(key, { timestamp: Math.floor(clock.getTime() / 1000) - 301, ip: strangerIp() })),
    [`${key} 401 nonce_reused`]: async () => {
      const nonce = unique('nonce-reused-0123456789');
      const first = await variant(key, { nonce });
      expect(first.statusCode, first.body).toBeLessThan(300);
      return answer(await variant(key, { nonce }));
    },
    [`${key} 401 unknown_key`]: async () =>
      answer(await variant(key, { headers: { 'x-access-key': 'test_nope' }, ip: strangerIp() })),
    [`${key} 403 ip_not_allowed`]: async () => answer(await variant(key, { ip: '203.0.113.7' })),
    [`${key} 403 merchant_disabled`]: async () =>
      answer(await variant(key, { merchant: await disabledMerchant(), ip: strangerIp() })),
    [`${key} 415 unsupported_media_type`]: async () =>
      answer(
        await variant(key, {
          payload: 'amount=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          ip: strangerIp(),
        }),
      ),
    [`${key} 429 throttled`]: async () => {
      const st = await overQuota();
      return answer(await variant(key, {}, st));
    },
    [`${key} 429 throttled_1`]: async () => {
      await addressOverLimit();
      return answer(await variant(key, { ip: REFUSED_ADDRESS }));
    },
    [`${key} 503 service_unavailable`]: async () => {
      const st = await sharedStory();
      const base = validCall(key, st);
      const [real] = await withPoolExhausted(async (app) => [
        answer(await gatewayCall(app, base.m, base.method, base.url, { now, body: base.body })),
      ]);
      return real;
    },
  };
}

const BAD_JSON = (key: string) => ({
  [`${key} 400 bad_request`]: async () =>
    answer(await variant(key, { payload: '{"amount": ', headers: { 'content-type': 'application/json' } })),
});

const notFound = (key: string, url: string, m: (st: Story) => GatewayMerchant) => ({
  [`${key} 404 not_found`]: async () => {
    const st = await sharedStory();
    const post = key.startsWith('POST');
    return answer(await call(m(st), post ? 'POST' : 'GET', url, post ? { body: REFUND_BODY } : {}));
  },
});

const byField = (key: string, url: string, m: (st: Story) => GatewayMerchant) => ({
  [`${key} 422 validation_failed`]: async () => answer(await call(m(await sharedStory()), 'GET', url)),
});

async function limitedMerchant(kind: 'collection' | 'payout', limits: Json) {
  const m = await merchant(10_000_000n);
  await ops('/ops/v1/limits', {
    merchant: m.merchant.no,
    mode: 'test',
    kind,
    ...limits,
    reason: 'risk review',
  });
  return m;
}

async function refundable(fundsMinor = 100_000n) {
  const m = await merchant(fundsMinor);
  const order = await createCollection(m);
  await payOnSandbox(order);
  return { m, order };
}

const refundsOf = (tradeNo: string) => `/gateway/v1/collections/${tradeNo}/refunds`;

/** Refuses while another transaction holds the key (PostgreSQL only). */
async function inFlight(m: GatewayMerchant, url: string, body: Json): Promise<Real> {
  const key = unique('in-flight');
  return withKeyLocked(m, key, async () =>
    answer(await call(m, 'POST', url, { body, headers: { 'idempotency-key': key } })),
  );
}

async function keyReused(m: GatewayMerchant, url: string, first: Json, second: Json): Promise<Real> {
  const key = unique('reused');
  const created = await call(m, 'POST', url, { body: first, headers: { 'idempotency-key': key } });
  expect(created.statusCode, created.body).toBe(201);
  return answer(await call(m, 'POST', url, { body: second, headers: { 'idempotency-key': key } }));
}

/** The callback event of `type` the app queued for the merchant: its body as sent. */
async function eventOf(m: GatewayMerchant, type: CallbackEventType, on = ctx): Promise<Real> {
  const events = await on.database.db
    .select()
    .from(callbackEvents)
    .where(and(eq(callbackEvents.merchantId, m.merchant.id), eq(callbackEvents.type, type)));
  expect(events, type).toHaveLength(1);
  return { status: 0, body: JSON.parse(events[0].payload) };
}

const completeOnSandbox = (data: Json) => ctx.app.services.channelJobs.run('sandbox.complete', data as never);

async function payoutOf(body: Json = PAYOUT_BODY) {
  const m = await merchant(990_200n);
  const created = await call(m, 'POST', '/gateway/v1/payouts', { body });
  expect(created.statusCode, created.body).toBe(201);
  return { m, payout: created.json().data as Json };
}

const CALLBACKS: Record<CallbackEventType, Producer> = {
  'collection.paid': async () => {
    const { m } = await refundable(0n);
    return eventOf(m, 'collection.paid');
  },
  'collection.closed': async () => {
    const m = await merchant();
    const order = await createCollection(m);
    const before = clock;
    clock = new Date(clock.getTime() + 30 * 60_000);
    try {
      expect(await ctx.app.services.collections.expire(order.trade_no)).not.toBeNull();
    } finally {
      clock = before;
    }
    return eventOf(m, 'collection.closed');
  },
  'collection.failed': async () => {
    const m = await merchant();
    await payOnSandbox(await createCollection(m), 'failed');
    return eventOf(m, 'collection.failed');
  },
  'payout.succeeded': async () => {
    const { m, payout } = await payoutOf();
    await completeOnSandbox({ trade_no: payout.trade_no });
    await completeOnSandbox({ trade_no: payout.trade_no });
    return eventOf(m, 'payout.succeeded');
  },
  'payout.failed': async () => {
    // The sandbox fails a payout to an account ending in 0000.
    const { m, payout } = await payoutOf({ ...PAYOUT_BODY, account_no: '6222020200120000' });
    await completeOnSandbox({ trade_no: payout.trade_no });
    await completeOnSandbox({ trade_no: payout.trade_no });
    return eventOf(m, 'payout.failed');
  },
  'payout.refunded': async () => {
    const { m, payout } = await payoutOf();
    await completeOnSandbox({ trade_no: payout.trade_no });
    await completeOnSandbox({ trade_no: payout.trade_no });
    await ctx.app.services.payouts.transition(payout.trade_no, 'refund_received', 'Returned by the bank');
    return eventOf(m, 'payout.refunded');
  },
  'refund.succeeded': async () => {
    const { m, order } = await refundable();
    const refund = (await call(m, 'POST', refundsOf(order.trade_no), { body: REFUND_BODY })).json().data;
    await completeOnSandbox({ refund_no: refund.refund_no });
    return eventOf(m, 'refund.succeeded');
  },
  'refund.failed': async () => {
    // The sandbox fails a refund whose amount ends in .13.
    const { m, order } = await refundable();
    const body = { ...REFUND_BODY, amount: '30.13' };
    const refund = (await call(m, 'POST', refundsOf(order.trade_no), { body })).json().data;
    await completeOnSandbox({ refund_no: refund.refund_no });
    return eventOf(m, 'refund.failed');
  },
};

function producers(): Record<string, Producer> {
  const C = 'POST /gateway/v1/collections';
  const RF = 'POST /gateway/v1/collections/{trade_no}/refunds';
  const P = 'POST /gateway/v1/payouts';
  const ok = (status: number, of: (st: Story) => Promise<Real> | Real) => async () => of(await sharedStory());
  const get = (m: (st: Story) => GatewayMerchant, url: (st: Story) => string) =>
    ok(200, async (st) => answer(await call(m(st), 'GET', url(st))));
  return {
    ...Object.assign({}, ...OPERATIONS.map(commonProducers)),
    // Successes: the story's own answers.
    [`${C} 201`]: ok(201, (st) => st.created),
    'GET /gateway/v1/collections 200': get(
      (st) => st.s,
      () => '/gateway/v1/collections?out_trade_no=ORDER-1001',
    ),
    'GET /gateway/v1/collections/{trade_no} 200': get(
      (st) => st.s,
      (st) => `/gateway/v1/collections/${st.collection.trade_no}`,
    ),
    [`${RF} 201`]: ok(201, (st) => st.refundCreated),
    'GET /gateway/v1/refunds 200': get(
      (st) => st.r,
      () => '/gateway/v1/refunds?out_refund_no=REFUND-1001',
    ),
    'GET /gateway/v1/refunds/{refund_no} 200': get(
      (st) => st.r,
      (st) => `/gateway/v1/refunds/${st.refund.refund_no}`,
    ),
    [`${P} 201`]: ok(201, (st) => st.payoutCreated),
    'GET /gateway/v1/payouts 200': get(
      (st) => st.s,
      () => '/gateway/v1/payouts?out_trade_no=PAYOUT-1001',
    ),
    'GET /gateway/v1/payouts/{trade_no} 200': get(
      (st) => st.s,
      (st) => `/gateway/v1/payouts/${st.payout.trade_no}`,
    ),
    'GET /gateway/v1/balance 200': ok(200, (st) => st.balance),

    // Collections.
    ...BAD_JSON(C),
    [`${C} 409 out_trade_no_taken`]: async () =>
      answer(
        await call((await sharedStory()).s, 'POST', '/gateway/v1/collections', { body: COLLECTION_BODY }),
      ),
    [`${C} 422 validation_failed`]: async () =>
      answer(
        await call((await sharedStory()).s, 'POST', '/gateway/v1/collections', {
          body: { out_trade_no: unique('ORDER'), amount: 100 },
        }),
      ),
    [`${C} 422 amount_out_of_range`]: async () =>
      answer(
        await call((await sharedStory()).s, 'POST', '/gateway/v1/collections', {
          body: { out_trade_no: unique('ORDER'), amount: '0.50' },
        }),
      ),
    [`${C} 422 channel_unavailable`]: async () =>
      answer(
        await call(await merchant(0n, { collections: false }), 'POST', '/gateway/v1/collections', {
          body: COLLECTION_BODY,
        }),
      ),
    [`${C} 422 limit_exceeded`]: async () => {
      const m = await limitedMerchant('collection', { per_order_max: '10000.00' });
      return answer(
        await call(m, 'POST', '/gateway/v1/collections', {
          body: { ...COLLECTION_BODY, amount: '20000.00' },
        }),
      );
    },
    [`${C} 422 blocked`]: async () => {
      const m = await merchant();
      await ops('/ops/v1/blocks', {
        merchant: m.merchant.no,
        mode: 'test',
        list: 'payer_ip',
        value: '203.0.113.77',
        reason: 'reported fraud',
      });
      return answer(
        await call(m, 'POST', '/gateway/v1/collections', {
          body: { ...COLLECTION_BODY, payer_ip: '203.0.113.77' },
        }),
      );
    },
    ...notFound(
      'GET /gateway/v1/collections',
      '/gateway/v1/collections?out_trade_no=ORDER-9999',
      (st) => st.s,
    ),
    ...byField('GET /gateway/v1/collections', '/gateway/v1/collections', (st) => st.s),
    ...notFound(
      'GET /gateway/v1/collections/{trade_no}',
      '/gateway/v1/collections/C2026010100000999',
      (st) => st.s,
    ),

    // Refunds.
    ...BAD_JSON(RF),
    ...notFound(RF, refundsOf('C2026010100000999'), (st) => st.r),
    [`${RF} 409 invalid_state`]: async () => {
      const st = await sharedStory();
      return answer(await call(st.s, 'POST', refundsOf(st.collection.trade_no), { body: REFUND_BODY }));
    },
    [`${RF} 409 out_refund_no_taken`]: async () => {
      const st = await sharedStory();
      return answer(
        await call(st.r, 'POST', refundsOf(st.paid.trade_no), { body: { ...REFUND_BODY, amount: '1.00' } }),
      );
    },
    [`${RF} 409 idempotency_key_in_flight`]: async () => {
      const { m, order } = await refundable();
      return inFlight(m, refundsOf(order.trade_no), REFUND_BODY);
    },
    [`${RF} 422 validation_failed`]: async () => {
      const st = await sharedStory();
      return answer(
        await call(st.r, 'POST', refundsOf(st.paid.trade_no), {
          body: { out_refund_no: unique('REFUND'), amount: 30 },
        }),
      );
    },
    [`${RF} 422 refund_exceeds_amount`]: async () => {
      // 100.00 paid, 30.00 refunded: 70.00 left.
      const { m, order } = await refundable();
      expect((await call(m, 'POST', refundsOf(order.trade_no), { body: REFUND_BODY })).statusCode).toBe(201);
      return answer(
        await call(m, 'POST', refundsOf(order.trade_no), {
          body: { out_refund_no: unique('REFUND'), amount: '80.00' },
        }),
      );
    },
    [`${RF} 422 insufficient_funds`]: async () => {
      // Paid, but the payment is not settled yet: nothing available to refund from.
      const { m, order } = await refundable(0n);
      return answer(await call(m, 'POST', refundsOf(order.trade_no), { body: REFUND_BODY }));
    },
    [`${RF} 422 channel_unavailable`]: async () => {
      const { m, order } = await refundable();
      // The order's channel now runs on a provider that takes payouts only.
      await ctx.database.db
        .update(channels)
        .set({ provider: 'manual' })
        .where(and(eq(channels.merchantId, m.merchant.id), eq(channels.code, 'sandbox-cny')));
      return answer(await call(m, 'POST', refundsOf(order.trade_no), { body: REFUND_BODY }));
    },
    [`${RF} 422 idempotency_key_reused`]: async () => {
      const { m, order } = await refundable();
      return keyReused(m, refundsOf(order.trade_no), REFUND_BODY, { ...REFUND_BODY, amount: '31.00' });
    },
    ...notFound('GET /gateway/v1/refunds', '/gateway/v1/refunds?out_refund_no=REFUND-9999', (st) => st.r),
    ...byField('GET /gateway/v1/refunds', '/gateway/v1/refunds', (st) => st.r),
    ...notFound(
      'GET /gateway/v1/refunds/{refund_no}',
      '/gateway/v1/refunds/R2026010100100000999999',
      (st) => st.r,
    ),

    // Payouts.
    ...BAD_JSON(P),
    [`${P} 409 out_trade_no_taken`]: async () =>
      answer(await call((await sharedStory()).s, 'POST', '/gateway/v1/payouts', { body: PAYOUT_BODY })),
    [`${P} 409 idempotency_key_in_flight`]: async () =>
      inFlight(await merchant(990_200n), '/gateway/v1/payouts', PAYOUT_BODY),
    [`${P} 422 validation_failed`]: async () => {
      const { account_no: _omitted, ...body } = PAYOUT_BODY;
      return answer(
        await call((await sharedStory()).s, 'POST', '/gateway/v1/payouts', {
          body: { ...body, out_trade_no: unique('PAYOUT') },
        }),
      );
    },
    [`${P} 422 amount_out_of_range`]: async () =>
      answer(
        await call((await sharedStory()).s, 'POST', '/gateway/v1/payouts', {
          body: { ...PAYOUT_BODY, out_trade_no: unique('PAYOUT'), amount: '0.50' },
        }),
      ),
    [`${P} 422 channel_unavailable`]: async () =>
      answer(
        await call(await merchant(990_200n, { payouts: false }), 'POST', '/gateway/v1/payouts', {
          body: PAYOUT_BODY,
        }),
      ),
    [`${P} 422 insufficient_funds`]: async () =>
      answer(await call(await merchant(), 'POST', '/gateway/v1/payouts', { body: PAYOUT_BODY })),
    [`${P} 422 limit_exceeded`]: async () => {
      const m = await limitedMerchant('payout', { per_order_max: '10000.00' });
      return answer(
        await call(m, 'POST', '/gateway/v1/payouts', { body: { ...PAYOUT_BODY, amount: '20000.00' } }),
      );
    },
    [`${P} 422 blocked`]: async () => {
      const m = await merchant(990_200n);
      await ops('/ops/v1/blocks', {
        merchant: m.merchant.no,
        mode: 'test',
        list: 'payee_account',
        value: PAYOUT_BODY.account_no,
        reason: 'reported fraud',
      });
      return answer(await call(m, 'POST', '/gateway/v1/payouts', { body: PAYOUT_BODY }));
    },
    [`${P} 422 idempotency_key_reused`]: async () =>
      keyReused(await merchant(990_200n), '/gateway/v1/payouts', PAYOUT_BODY, {
        ...PAYOUT_BODY,
        amount: '501.00',
      }),
    ...notFound('GET /gateway/v1/payouts', '/gateway/v1/payouts?out_trade_no=PAYOUT-9999', (st) => st.s),
    ...byField('GET /gateway/v1/payouts', '/gateway/v1/payouts', (st) => st.s),
    ...notFound('GET /gateway/v1/payouts/{trade_no}', '/gateway/v1/payouts/P2026010100000999', (st) => st.s),

    // Callbacks.
    ...Object.fromEntries(CALLBACK_EVENT_TYPES.map((type) => [`callback ${type}`, CALLBACKS[type]])),
  };
}

/** Long enough for the first quota 429's 3,000 signed calls (spent once for all operations) on a loaded machine. */
const QUOTA_TIMEOUT = 180_000;

/** Examples whose real call needs a second connection to the database. */
const POSTGRES_ONLY = /( 503 service_unavailable| 409 idempotency_key_in_flight)$/;

describe('every example of /gateway/openapi.json is a real answer', () => {
  it('has the real call of every example, and of no example it does not give', () => {
    expect([...documentExamples().keys()].sort()).toEqual(Object.keys(producers()).sort());
  });

  // The keys are the document's, read when the tests run; the list here is the same (the test above).
  const keys = Object.keys(producers());
  // Those that spend a quota or an address's refused calls last, so that they cannot refuse the others.
  const order = (key: string) => (/ 429 /.test(key) ? 1 : 0);
  keys.sort((a, b) => order(a) - order(b));

  for (const key of keys) {
    const postgresOnly = POSTGRES_ONLY.test(key);
    it.runIf(!postgresOnly || testDatabaseKind() === 'postgres')(
      key,
      async () => {
        const example = documentExamples().get(key);
        expect(example, `the document has no example ${key}`).toBeDefined();
        const real = await producers()[key]();
        if (example!.status !== undefined)
          expect(real.status, JSON.stringify(real.body)).toBe(example!.status);
        expect(normalise(real.body), `the real answer: ${JSON.stringify(real.body)}`).toEqual(
          normalise(example!.value),
        );
      },
      QUOTA_TIMEOUT,
    );
  }
});

describe('with PUBLIC_URL set', () => {
  it('names PUBLIC_URL as the server, whichever host the reader reached', async () => {
    expect(document.servers).toEqual([{ url: PUBLIC_URL, description: 'This Paydesk server' }]);
    const elsewhere = await ctx.app.inject({
      method: 'GET',
      url: '/gateway/openapi.json',
      headers: { host: 'internal.example.net:8080' },
    });
    expect(elsewhere.json().servers).toEqual([{ url: PUBLIC_URL, description: 'This Paydesk server' }]);
  });

  it('answers pay_url as PUBLIC_URL + the pay page path, and the callback carries the same absolute pay_url', async () => {
    const m = await merchant();
    const created = await call(m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'PUBLIC-1', amount: '10.00' },
      headers: { host: 'internal.example.net:8080' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json().data;
    const payUrl = `${PUBLIC_URL}/sandbox/pay/${order.trade_no}`;
    expect(order.pay_url).toBe(payUrl);
    const read = await call(m, 'GET', `/gateway/v1/collections/${order.trade_no}`);
    expect(read.json().data.pay_url).toBe(payUrl);
    await payOnSandbox(order);
    const paid = (await eventOf(m, 'collection.paid')).body as Json;
    expect(paid.data).toMatchObject({ trade_no: order.trade_no, status: 'paid', pay_url: payUrl });
  });
});

describe('without PUBLIC_URL', () => {
  it('answers pay_url on the origin the caller reached, and a callback (no caller to take it from) carries the path', async () => {
    const plain = await createTestApp({}, { now });
    try {
      const m = await createGatewayMerchant(plain.database.db, plain.config.appKey, {
        mode: 'test',
        notifyUrl: 'http://127.0.0.1:9/hooks',
      });
      const servers = await plain.app.inject({
        method: 'GET',
        url: '/gateway/openapi.json',
        headers: { host: 'pay.example.com' },
      });
      expect(servers.json().servers).toEqual([
        { url: 'http://pay.example.com', description: 'This Paydesk server' },
      ]);
      const created = await gatewayCall(plain.app, m, 'POST', '/gateway/v1/collections', {
        now,
        body: { out_trade_no: 'PATH-1', amount: '10.00' },
        headers: { host: 'pay.example.com' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const order = created.json().data;
      expect(order.pay_url).toBe(`http://pay.example.com/sandbox/pay/${order.trade_no}`);
      await payOnSandbox(order, 'paid', plain.app);
      const paid = (await eventOf(m, 'collection.paid', plain)).body as Json;
      expect(paid.data).toMatchObject({
        trade_no: order.trade_no,
        pay_url: `/sandbox/pay/${order.trade_no}`,
      });
    } finally {
      await plain.close();
    }
  });
});
