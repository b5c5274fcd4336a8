import { sql } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { signRequest } from '../../src/lib/gateway-signature.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { createOperatorToken } from '../../src/modules/ops/operator-auth.ts';
import { createGatewayMerchant, freshNonce } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { type ServerProcess, startJobsWorker, startServerProcess } from '../helpers/server-process.ts';
import {
  createTestDatabase,
  TEST_APP_KEY,
  testDatabaseKind,
  type TestDatabase,
} from '../helpers/test-app.ts';

// DESIGN 2: API nodes are stateless (sessions and throttles live in PostgreSQL) and any number of worker
// processes share the jobs without double work. Two real server processes (JOBS=off) and two real worker
// processes (npm run worker) on one PostgreSQL database.

const appKey = Buffer.from(TEST_APP_KEY.replace(/^base64:/, ''), 'base64');
const ORDERS = 16;

let database: TestDatabase | undefined;
const processes: ServerProcess[] = [];
let receiver: Server | undefined;
afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  receiver?.close();
  await database?.drop();
});

/** A console client over real HTTP to one server or another: cookies kept, CSRF header sent. */
class Browser {
  cookies = new Map<string, string>();
  async call(port: number, method: string, url: string, body?: unknown) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/** Polls a condition on real processes until it holds (they run on their own clocks), within a limit. */
async function eventually(what: string, check: () => Promise<boolean>, limitMs = 120_000) {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Still not true after ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.runIf(testDatabaseKind() === 'postgres')('two servers and two workers on one database', () => {
  it('share sessions and throttles, and run every job once', { timeout: 300_000 }, async () => {
    database = await createTestDatabase();
    const db = database.db;

    // The merchant's server: counts each callback by its webhook-id.
    const deliveries = new Map<string, number>();
    receiver = createServer((request, response) => {
      const id = String(request.headers['webhook-id']);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;

    const m = await createGatewayMerchant(db, appKey, {
      roles: ['ROOT'],
      notifyUrl,
      // Paid by the sandbox at once, settled the same day.
      channel: {
        sandboxMode: 'auto',
        sandboxSuccessPpm: 1_000_000,
        sandboxDelaySeconds: 0,
        settlementCycle: 'T0',
      },
    });
    // Production mode with the demo's sandbox (PAYDESK_DEMO, as npm start runs): the database already has
    // merchants, so nothing is seeded.
    const env = { JOBS: 'off', NOTIFY_ALLOW_PRIVATE: 'true', PAYDESK_DEMO: 'true' };
    const [a, b] = await Promise.all([
      startServerProcess({ databaseUrl: database.url, env }),
      startServerProcess({ databaseUrl: database.url, env }),
    ]);
    processes.push(a, b);
    const workers = await Promise.all([
      startJobsWorker({ ...env, JOBS: 'inline', DATABASE_URL: database.url }),
      startJobsWorker({ ...env, JOBS: 'inline', DATABASE_URL: database.url }),
    ]);
    processes.push(...workers);

    // A session started on one server works on the other, and ends on both.
    const browser = new Browser();
    await browser.call(a.port, 'GET', '/api/csrf-cookie');
    const login = await browser.call(a.port, 'POST', '/api/login', {
      email: m.users.ROOT.email,
      password: TEST_PASSWORD,
    });
    expect(login.status).toBe(200);
    const me = await browser.call(b.port, 'GET', '/api/merchant/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(m.users.ROOT.email);
    expect((await browser.call(b.port, 'POST', '/api/logout')).status).toBe(204);
    expect((await browser.call(a.port, 'GET', '/api/merchant/user')).status).toBe(401);

    // Five wrong passwords a minute per email and IP, counted across both servers.
    const guesser = new Browser();
    await guesser.call(a.port, 'GET', '/api/csrf-cookie');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const port = i % 2 === 0 ? a.port : b.port;
      const attempt = await guesser.call(port, 'POST', '/api/login', {
        email: m.users.ROOT.email,
        password: `wrong-password-${i}`,
      });
      statuses.push(attempt.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);

    // Orders through both servers; the workers pay them (sandbox job) and deliver each callback once.
    for (let i = 0; i < ORDERS; i++) {
      const port = i % 2 === 0 ? a.port : b.port;
      const body = JSON.stringify({ out_trade_no: `MULTI-${i}`, amount: '25.00', channel: 'sandbox' });
      const timestamp = Math.floor(Date.now() / 1000);
      const nonce = freshNonce();
      const urlPath = '/gateway/v1/collections';
      const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-merchant-no': m.merchant.no,
          'x-access-key': m.accessKey,
          'x-timestamp': String(timestamp),
          'x-nonce': nonce,
          'x-signature': signRequest(m.secret, {
            method: 'POST',
            pathWithQuery: urlPath,
            timestamp,
            nonce,
            body,
          }),
        },
        body,
      });
      expect(response.status, await response.clone().text()).toBe(201);
    }
    // Delivered, and each delivery recorded (a worker records it once the receiver has answered).
    const figures = async () =>
      (
        await queryRows<{ paid: number; delivered: number; attempts: number }>(
          db,
          sql`select
            (select count(*)::int from collections where merchant_id = ${m.merchant.id} and status = 'paid') as paid,
            (select count(*)::int from callback_events where merchant_id = ${m.merchant.id}
              and status = 'delivered') as delivered,
            (select count(*)::int from callback_attempts a join callback_events e on e.id = a.event_id
              where e.merchant_id = ${m.merchant.id}) as attempts`,
        )
      )[0];
    await eventually(`${ORDERS} callbacks delivered and recorded`, async () => {
      const now = await figures();
      return deliveries.size >= ORDERS && now.delivered >= ORDERS;
    });
    expect(await figures()).toEqual({ paid: ORDERS, delivered: ORDERS, attempts: ORDERS });
    expect([...deliveries.values()].every((count) => count === 1)).toBe(true);

    // Settlement runs on both servers at once: each paid order is settled once, in one posted batch.
    const token = await createOperatorToken(db, 'multi-process test');
    const run = (port: number) =>
      fetch(`http://127.0.0.1:${port}/ops/v1/settlements/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'two at once' }),
      });
    const runs = await Promise.all([run(a.port), run(b.port)]);
    for (const response of runs) expect(response.status, await response.clone().text()).toBe(201);
    const [settled] = await queryRows<{ batches: number; orders: number; gross: string; entries: number }>(
      db,
      sql`select
        (select count(*)::int from settlements where merchant_id = ${m.merchant.id}) as batches,
        (select coalesce(sum(order_count), 0)::int from settlements where merchant_id = ${m.merchant.id}) as orders,
        (select coalesce(sum(gross_minor), 0)::text from settlements where merchant_id = ${m.merchant.id}) as gross,
        (select count(*)::int from fund_flows where merchant_id = ${m.merchant.id}
          and type = 'collection_settlement') as entries`,
    );
    expect(settled).toEqual({ batches: 1, orders: ORDERS, gross: String(ORDERS * 2500), entries: 1 });
    expect((await verifyLedger(db)).problems).toEqual([]);

    for (const p of processes) p.child.kill('SIGTERM');
    expect(await Promise.all(processes.map((p) => p.exited))).toEqual([0, 0, 0, 0]);
  });
});
