import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayMerchant, gatewayCall, payOnSandboxPage } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Callbacks in production (NOTIFY_ALLOW_PRIVATE off) never reach a special-use address: the check runs on
// the address the connection goes to, before connecting (DESIGN 6 and 9). The first four are the ranges the
// audit found the hand-kept table missed; the fifth is an IPv4-mapped private address.

const TARGETS = [
  { host: '192.0.0.8', shown: '192.0.0.8', range: 'reserved' },
  { host: '198.18.0.1', shown: '198.18.0.1', range: 'reserved' },
  {
    host: '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
    shown: '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    range: 'teredo',
  },
  { host: '[64:ff9b:1::a00:1]', shown: '64:ff9b:1::a00:1', range: 'rfc6052' },
  // The URL parser writes [::ffff:10.0.0.1] as [::ffff:a00:1]; it is judged as 10.0.0.1.
  { host: '[::ffff:10.0.0.1]', shown: '::ffff:a00:1', range: 'private' },
];

let ctx: TestContext;
const now = () => new Date();

// Every socket this process opens to one of those addresses is recorded and never leaves the machine, so
// the test proves "not called" without sending a packet anywhere, even against code that would connect.
const shown = new Set(TARGETS.map((t) => t.shown));
const connectsToTargets: string[] = [];
const connect = Socket.prototype.connect;

beforeAll(async () => {
  vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (this: Socket, ...args: unknown[]) {
    // net.createConnection passes its normalised arguments as one array: [options, callback].
    const options = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const host = typeof options === 'object' && options !== null ? (options as { host?: string }).host : '';
    if (host && shown.has(host)) {
      connectsToTargets.push(host);
      process.nextTick(() => this.destroy(new Error(`test: connect to ${host} blocked`)));
      return this;
    }
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  });
  ctx = await createTestApp({ NOTIFY_ALLOW_PRIVATE: 'false' }, { now, deliverTimeoutMs: 2_000 });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await ctx?.close();
});

describe('a notify URL on a special-use address', () => {
  it('is never called: each attempt is logged as refused, with no answer', async () => {
    // A test key: its orders are paid on the sandbox page, which serves test mode only (DESIGN 12).
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { mode: 'test' });
    const console = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    console.mode = 'test';
    const logged: Record<string, unknown> = {};
    for (const [i, target] of TARGETS.entries()) {
      const created = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
        body: { out_trade_no: `SSRF-${i}`, amount: '10.00', notify_url: `http://${target.host}:8080/hooks` },
        now,
      });
      expect(created.statusCode, created.body).toBe(201);
      const order = created.json().data;
      const paid = await payOnSandboxPage(ctx.app, order.pay_url);
      expect(paid.statusCode).toBe(303);

      const eventId = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data
        .callbacks[0].id;
      expect(await ctx.app.services.callbacks.attempt(eventId)).toMatchObject({
        attempt: 1,
        ok: false,
        statusCode: null,
      });
      const detail = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data;
      expect(detail.callbacks[0].status).toBe('pending');
      const [attempt] = detail.callbacks[0].attempts;
      logged[target.host] = { status_code: attempt.status_code, error: attempt.error };
    }
    expect(logged).toEqual(
      Object.fromEntries(
        TARGETS.map((t) => [
          t.host,
          { status_code: null, error: `address not allowed: ${t.shown} is ${t.range}` },
        ]),
      ),
    );
    expect(connectsToTargets).toEqual([]);
  });
});
