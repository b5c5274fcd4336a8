import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { GATEWAY_RATE_PER_MINUTE } from '../../src/modules/gateway/index.ts';
import {
  createGatewayMerchant,
  freshNonce,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// DESIGN 9 (turn 3): the gateway counts unsigned or wrongly signed calls against the caller's IP address
// only; a merchant's own quota is spent only by calls that carry its valid signature. Small limits are
// injected, and the clock too (no waiting for a minute to pass).

const QUOTA = 3;
const FAILURES = 5;

let ctx: TestContext;
let clock = new Date();
const now = () => clock;
/** Five seconds into the next minute of the clock: the limits count per minute of the clock. */
const startOfNextMinute = () => {
  clock = new Date((Math.floor(clock.getTime() / 60_000) + 1) * 60_000 + 5_000);
};
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  ctx = await createTestApp({}, { now, gateway: { ratePerMinute: QUOTA, failuresPerIpPerMinute: FAILURES } });
});
afterAll(() => ctx?.close());

const merchantFor = (whitelist?: string[]) =>
  createGatewayMerchant(ctx.database.db, ctx.config.appKey, whitelist ? { whitelist } : {});

const balance = (m: GatewayMerchant, options: Parameters<typeof gatewayCall>[4] = {}) =>
  gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now, ...options });

/** A stranger's call naming merchant number `no`: signed with a wrong secret, or not signed at all. */
const strangerCall = (m: GatewayMerchant, ip: string, signed: boolean, no = m.merchant.no) =>
  gatewayCall(ctx.app, { ...m, secret: 'not-the-secret' }, 'GET', '/gateway/v1/balance', {
    now,
    ip,
    headers: {
      'x-merchant-no': no,
      ...(signed ? {} : { 'x-access-key': undefined, 'x-signature': undefined }),
    },
  });

const collectionCount = async (m: GatewayMerchant) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from collections where merchant_id = ${m.merchant.id}`,
    )
  )[0].n;

describe("strangers' calls", () => {
  it("as many unsigned or badly signed calls as a merchant's quota, naming it, leave its quota whole", async () => {
    startOfNextMinute();
    const m = await merchantFor();
    // 3,000 calls a minute naming the merchant (its real quota: a limit keyed by X-Merchant-No refused its
    // own next call), from 30 addresses: each address gets its refused calls, then 429.
    const ips = Array.from({ length: 30 }, (_, i) => `198.51.100.${i + 1}`);
    const statuses: Record<number, number> = {};
    for (let round = 0; round < GATEWAY_RATE_PER_MINUTE / ips.length; round++) {
      const answers = await Promise.all(ips.map((ip, i) => strangerCall(m, ip, (round + i) % 2 === 0)));
      for (const answer of answers) statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
      if (round === FAILURES) {
        expect(answers[0].json()).toMatchObject({ code: 'throttled' });
        expect(answers[0].headers['retry-after']).toBe('55');
      }
    }
    expect(statuses).toEqual({
      401: ips.length * FAILURES,
      429: GATEWAY_RATE_PER_MINUTE - ips.length * FAILURES,
    });

    const own = await balance(m);
    expect(own.statusCode, own.body).toBe(200);
  });

  it("rotating X-Merchant-No from one address reaches that address's 429, and only that address's", async () => {
    startOfNextMinute();
    const ip = '203.0.113.7';
    const m = await merchantFor([ip]);
    for (let i = 0; i < FAILURES; i++) {
      const refused = await strangerCall(m, ip, i % 2 === 0, `M${900_000 + i}`);
      expect(refused.statusCode, refused.body).toBe(401);
    }
    const throttled = await strangerCall(m, ip, false, 'M999999');
    expect(throttled.statusCode, throttled.body).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'throttled', message: expect.any(String) });
    expect(throttled.headers['retry-after']).toBe('55');
    // The address is refused before any check, even a call with a valid signature.
    expect((await balance(m, { ip })).statusCode).toBe(429);
    // Another address is not.
    expect((await strangerCall(m, '203.0.113.8', false)).statusCode).toBe(401);

    advance(60_000);
    expect((await strangerCall(m, ip, false)).statusCode).toBe(401);
    const own = await balance(m, { ip });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('counts an IPv6 caller by its /64: rotating through its own block reaches the same 429', async () => {
    startOfNextMinute();
    const m = await merchantFor(['2001:db8:42::/48']);
    for (let i = 0; i < FAILURES; i++) {
      const refused = await strangerCall(m, `2001:db8:42:7::${(i + 1).toString(16)}`, false);
      expect(refused.statusCode, refused.body).toBe(401);
    }
    expect((await strangerCall(m, '2001:db8:42:7:ffff::1', false)).statusCode).toBe(429);
    // The next /64 is another subscriber's.
    expect((await strangerCall(m, '2001:db8:42:8::1', false)).statusCode).toBe(401);
  });

  it("counts replayed nonces (a read's and a write's) against the address, and a 415's", async () => {
    startOfNextMinute();
    const ip = '203.0.113.20';
    const m = await merchantFor([ip]);
    const other = await merchantFor([ip]);
    const nonce = freshNonce();
    const body = { out_trade_no: 'REPLAY-1', amount: '100.00', payer_name: 'Li Lei' };
    const post = (options: Parameters<typeof gatewayCall>[4]) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', { body, now, ip, ...options });
    expect((await balance(m, { ip, nonce })).statusCode).toBe(200);
    const replays = [await balance(m, { ip, nonce }), await post({ nonce })];
    expect(replays.map((r) => r.json().code)).toEqual(['nonce_reused', 'nonce_reused']);
    const form = await post({ payload: 'amount=1', headers: { 'content-type': 'text/plain' } });
    expect(form.statusCode, form.body).toBe(415);
    for (let i = replays.length + 1; i < FAILURES; i++) {
      expect((await strangerCall(m, ip, false)).statusCode).toBe(401);
    }
    // The address has used up its refused calls: another merchant's valid call from it waits too.
    expect((await balance(other, { ip })).statusCode).toBe(429);
    expect(await collectionCount(m)).toBe(0);
  });
  it("replays of a merchant's signed call (a read's and a write's) leave its quota whole", async () => {
    startOfNextMinute();
    // A replayer behind an address the merchant whitelists (a shared exit, a whitelisted block) who saw
    // one signed call: the copies carry a valid signature, but they are not the merchant's calls.
    const m = await merchantFor(['203.0.113.0/24']);
    const nonce = freshNonce();
    const body = { out_trade_no: 'REPLAYED-1', amount: '100.00', payer_name: 'Li Lei' };
    const post = (ip: string) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', { body, nonce, now, ip });
    const first = await post('203.0.113.30');
    expect(first.statusCode, first.body).toBe(201);
    const readNonce = freshNonce();
    expect((await balance(m, { ip: '203.0.113.30', nonce: readNonce })).statusCode).toBe(200);
    // QUOTA replays of each, from addresses of their own (each under its refused calls).
    for (let i = 0; i < QUOTA; i++) {
      const ip = `203.0.113.${40 + i}`;
      const replays = [await post(ip), await balance(m, { ip, nonce: readNonce })];
      expect(replays.map((r) => r.json().code)).toEqual(['nonce_reused', 'nonce_reused']);
    }
    // The merchant has made two calls this minute: its third passes.
    const own = await balance(m, { ip: '203.0.113.30' });
    expect(own.statusCode, own.body).toBe(200);
    expect(await collectionCount(m)).toBe(1);
  });
});

describe("a merchant's own quota", () => {
  it('answers 429 with Retry-After to its signed calls over the quota, and they pass again the next minute', async () => {
    startOfNextMinute();
    const m = await merchantFor();
    const other = await merchantFor();
    for (let i = 0; i < QUOTA; i++) {
      const own = await balance(m);
      expect(own.statusCode, own.body).toBe(200);
    }
    const over = await balance(m);
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json()).toMatchObject({ code: 'throttled', message: expect.any(String) });
    expect(over.headers['retry-after']).toBe('55');

    // A write over the quota creates nothing and does not spend its nonce.
    const nonce = freshNonce();
    const body = { out_trade_no: 'OVER-1', amount: '100.00', payer_name: 'Li Lei' };
    const refused = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', { body, nonce, now });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(await collectionCount(m)).toBe(0);

    // The merchant's 429s are not failures of its address, and another merchant has a quota of its own.
    for (let i = 0; i < FAILURES * 2; i++) expect((await balance(m)).statusCode).toBe(429);
    const others = await balance(other);
    expect(others.statusCode, others.body).toBe(200);

    advance(55_000);
    const again = await balance(m);
    expect(again.statusCode, again.body).toBe(200);
    const made = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', { body, nonce, now });
    expect(made.statusCode, made.body).toBe(201);
    expect(await collectionCount(m)).toBe(1);
  });
});
