import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Paydesk,
  PaydeskAuthenticationError,
  PaydeskConflictError,
  PaydeskConnectionError,
  PaydeskInvalidRequestError,
  PaydeskNotFoundError,
  PaydeskPermissionError,
  PaydeskWebhookVerificationError,
  signWebhook,
  type WebhookEvent,
} from '../../../../packages/node-client/src/index.ts';
import { generateTypes } from '../../../../packages/node-client/scripts/generate-types.ts';
import { queryRows } from '../../src/db/client.ts';
import { CLIENT_LIBRARY_EXAMPLES, EXAMPLE_PLACEHOLDERS } from '../../src/modules/gateway/gateway-docs.ts';
import { accessKeys } from '../../src/db/schema/index.ts';
import { encrypt } from '../../src/lib/crypto.ts';
import { newWebhookSecret } from '../../src/lib/webhooks.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  type GatewayMerchant,
  openPayoutChannel,
} from '../factories/gateway.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

// The client libraries (packages/node-client, packages/python-client/paydesk.py) against a real server:
// the app listening on a port with its jobs running (callbacks delivered to a real receiver, the sandbox
// finishing refunds and payouts by itself), a merchant with a test key and a live key and its IP whitelist.

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const nodeClientDir = path.join(repoRoot, 'packages/node-client');
const pythonClientDir = path.join(repoRoot, 'packages/python-client');

// Child processes must reach 127.0.0.1 directly, whatever proxy this machine is configured with.
const CHILD_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name)),
);

type Received = { headers: IncomingHttpHeaders; body: string };

let ctx: TestContext;
let baseUrl: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let m: GatewayMerchant;
let liveKey: { accessKey: string; secretKey: string };
let paydesk: Paydesk;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'client-libraries-'));
  // JOBS inline: the callback and sandbox jobs run as in a deployed server (polling every second).
  ctx = await createTestApp({ JOBS: 'inline' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paydesk/callbacks`;

  // A test key with the sandbox (finishing refunds and payouts after 1 s), test funds, the whitelist.
  m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
    mode: 'test',
    notifyUrl: receiverUrl,
    whitelist: ['127.0.0.1', '::1'],
    channel: { sandboxDelaySeconds: 1 },
  });
  await openPayoutChannel(ctx.database.db, m.merchant.id, { sandboxDelaySeconds: 1 });
  await fundMerchant(ctx.database.db, m.merchant.id, 100_000n);
  // And the same merchant's live key, with no live channel open.
  liveKey = {
    accessKey: `live_${randomBytes(12).toString('hex')}`,
    secretKey: randomBytes(24).toString('base64url'),
  };
  await ctx.database.db.insert(accessKeys).values({
    merchantId: m.liveMerchant.id,
    accessKey: liveKey.accessKey,
    secretEncrypted: encrypt(ctx.config.appKey, liveKey.secretKey),
    webhookSecretEncrypted: encrypt(ctx.config.appKey, newWebhookSecret()),
  });
  paydesk = new Paydesk({ baseUrl, merchantNo: m.merchant.no, accessKey: m.accessKey, secretKey: m.secret });
  // A migrated database, pg-boss's schema and a server on a port: more than the default on a busy machine.
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await ctx?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

/** Pays a sandbox collection on its hosted page, as a payer's browser does. */
async function payOnSandboxPage(payUrl: string) {
  const answer = await fetch(new URL(payUrl, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'result=paid',
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
}

/** The callback of this type for this object, once the receiver has it (raw body and headers). */
async function callback(type: string, match: (data: Record<string, unknown>) => boolean): Promise<Received> {
  let found: Received | undefined;
  await vi.waitFor(
    () => {
      found = received.find((r) => {
        const event = JSON.parse(r.body) as { type: string; data: Record<string, unknown> };
        return event.type === type && match(event.data);
      });
      expect(found, `a ${type} callback`).toBeDefined();
    },
    { timeout: 30_000, interval: 100 },
  );
  return found!;
}

/** A fetch that counts the attempts and can answer in its place (a lost answer, a 503...). */
function scriptedFetch(script: Array<'lose-answer' | 'refuse' | 503 | 429 | 'pass'>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetcher: typeof fetch = async (input, init) => {
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    calls.push({ url: String(input), headers });
    const step = script[calls.length - 1] ?? 'pass';
    if (step === 'refuse') throw new TypeError('fetch failed (connection refused)');
    if (step === 503 || step === 429) {
      return new Response(
        JSON.stringify({ message: 'Try again.', code: step === 503 ? 'service_unavailable' : 'throttled' }),
        {
          status: step,
          headers: { 'content-type': 'application/json', ...(step === 429 ? { 'retry-after': '0' } : {}) },
        },
      );
    }
    const answer = await fetch(input, init);
    if (step === 'lose-answer') {
      // The server did the work; the answer never reaches the caller.
      await answer.arrayBuffer();
      throw new TypeError('fetch failed (socket hang up)');
    }
    return answer;
  };
  return { fetcher, calls };
}

const countPayouts = async (outTradeNo: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from payouts where merchant_id = ${m.merchant.id} and out_trade_no = ${outTradeNo}`,
    )
  )[0].n;

describe('the Node client against a running server', { timeout: 180_000 }, () => {
  it('creates a test collection, pays it, refunds part of it, and verifies each callback', async () => {
    expect(paydesk.testMode).toBe(true);
    const order = await paydesk.collections.create({ out_trade_no: 'NODE-1001', amount: '100.00' });
    expect(order).toMatchObject({
      out_trade_no: 'NODE-1001',
      status: 'to_be_paid',
      amount: '100.00',
      currency: 'CNY',
      livemode: false,
    });
    expect(order.lastResponse).toMatchObject({ status: 201, attempts: 1, replayed: false });
    await payOnSandboxPage(order.pay_url);

    // The collection.paid callback, verified with the test key's webhook secret.
    const paid = await callback('collection.paid', (data) => data.trade_no === order.trade_no);
    const event: WebhookEvent = Paydesk.webhooks.verify(paid.body, paid.headers, m.webhookSecret);
    expect(event.type).toBe('collection.paid');
    if (event.type !== 'collection.paid') throw new Error('narrowed above');
    expect(event.data).toMatchObject({ trade_no: order.trade_no, status: 'paid', livemode: false });
    expect(event.id).toBe(paid.headers['webhook-id']);
    // A tampered body, another secret, a stale timestamp, no signature: refused.
    const tampered = paid.body.replace('"100.00"', '"1000.00"');
    expect(tampered).not.toBe(paid.body);
    expect(() => Paydesk.webhooks.verify(tampered, paid.headers, m.webhookSecret)).toThrow(
      PaydeskWebhookVerificationError,
    );
    expect(() => Paydesk.webhooks.verify(paid.body, paid.headers, newWebhookSecret())).toThrow(
      PaydeskWebhookVerificationError,
    );
    const later = () => new Date((Number(paid.headers['webhook-timestamp']) + 301) * 1000);
    expect(() => Paydesk.webhooks.verify(paid.body, paid.headers, m.webhookSecret, { now: later })).toThrow(
      /too far/,
    );
    expect(() =>
      Paydesk.webhooks.verify(
        paid.body,
        { ...paid.headers, 'webhook-signature': undefined },
        m.webhookSecret,
      ),
    ).toThrow(/Missing/);
    // Several signatures in the header (a secret being rotated): one matching is enough, in any place.
    const other = signWebhook(newWebhookSecret(), {
      id: String(paid.headers['webhook-id']),
      timestamp: String(paid.headers['webhook-timestamp']),
      body: paid.body,
    });
    const rotated = { ...paid.headers, 'webhook-signature': `${other} ${paid.headers['webhook-signature']}` };
    expect(
      Paydesk.webhooks.verify(Buffer.from(paid.body), new Headers(rotated as never), m.webhookSecret).id,
    ).toBe(event.id);

    // Read back by either number.
    expect(await paydesk.collections.get(order.trade_no)).toMatchObject({ status: 'paid' });
    expect((await paydesk.collections.getByOutTradeNo('NODE-1001')).trade_no).toBe(order.trade_no);

    // A partial refund; the sandbox finishes it after a second, and says so by callback.
    const refund = await paydesk.refunds.create(order.trade_no, {
      out_refund_no: 'NODE-R-1',
      amount: '30.00',
    });
    expect(refund).toMatchObject({
      trade_no: order.trade_no,
      status: 'processing',
      amount: '30.00',
      livemode: false,
    });
    expect(refund.lastResponse.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const refunded = await callback('refund.succeeded', (data) => data.refund_no === refund.refund_no);
    expect(Paydesk.webhooks.verify(refunded.body, refunded.headers, m.webhookSecret).data).toMatchObject({
      refund_no: refund.refund_no,
      status: 'succeeded',
    });
    expect(await paydesk.refunds.get(refund.refund_no)).toMatchObject({ status: 'succeeded' });
    expect((await paydesk.refunds.getByOutRefundNo('NODE-R-1')).refund_no).toBe(refund.refund_no);

    // More than what is left: a typed 422, not retried.
    await expect(
      paydesk.refunds.create(order.trade_no, { out_refund_no: 'NODE-R-2', amount: '70.01' }),
    ).rejects.toMatchObject({ status: 422, code: 'refund_exceeds_amount' });
  });

  it('creates a payout whose retries reuse its Idempotency-Key, and reads the balance', async () => {
    const before = await paydesk.balance.get();
    expect(before).toMatchObject({ currency: 'CNY' });
    const body = {
      ...CN_PAYEE,
      account_type: 'individual' as const,
      out_trade_no: 'NODE-P-1',
      amount: '100.00',
    };

    // The first answer is lost after the server made the payout: the retry (same key, a new nonce) replays it.
    const lossy = scriptedFetch(['lose-answer']);
    const client = new Paydesk({
      baseUrl,
      merchantNo: m.merchant.no,
      accessKey: m.accessKey,
      secretKey: m.secret,
      retryDelayMs: 10,
      fetch: lossy.fetcher,
    });
    const payout = await client.payouts.create(body);
    expect(payout).toMatchObject({ out_trade_no: 'NODE-P-1', amount: '100.00', livemode: false });
    expect(payout.lastResponse).toMatchObject({ status: 201, attempts: 2, replayed: true });
    expect(lossy.calls).toHaveLength(2);
    const [first, second] = lossy.calls.map((call) => call.headers);
    expect(second['idempotency-key']).toBe(first['idempotency-key']);
    expect(second['X-Nonce']).not.toBe(first['X-Nonce']);
    expect(await countPayouts('NODE-P-1')).toBe(1);

    // The same key again, by hand: the stored answer, Idempotent-Replayed.
    const again = await paydesk.payouts.create(body, { idempotencyKey: first['idempotency-key'] });
    expect(again).toEqual(payout);
    expect(again.lastResponse.headers.get('idempotent-replayed')).toBe('true');
    expect(await countPayouts('NODE-P-1')).toBe(1);

    // Held at once: 100.00 + its fee (1% + 0.50) left available.
    const after = await paydesk.balance.get();
    expect(Number(before.available) - Number(after.available)).toBeCloseTo(101.5, 2);

    const succeeded = await callback('payout.succeeded', (data) => data.trade_no === payout.trade_no);
    expect(Paydesk.webhooks.verify(succeeded.body, succeeded.headers, m.webhookSecret).data).toMatchObject({
      trade_no: payout.trade_no,
      status: 'success',
    });
    expect(await paydesk.payouts.get(payout.trade_no)).toMatchObject({ status: 'success' });
    expect((await paydesk.payouts.getByOutTradeNo('NODE-P-1')).trade_no).toBe(payout.trade_no);
  });

  it('retries network errors, 429 and 5xx, and never another 4xx', async () => {
    const flaky = scriptedFetch(['refuse', 503, 429]);
    const client = new Paydesk({
      baseUrl,
      merchantNo: m.merchant.no,
      accessKey: m.accessKey,
      secretKey: m.secret,
      retryDelayMs: 10,
      fetch: flaky.fetcher,
    });
    const balance = await client.balance.get();
    expect(balance.lastResponse.attempts).toBe(4);
    expect(flaky.calls).toHaveLength(4);

    // A duplicate out_trade_no: 409 with the existing trade_no, once.
    const once = scriptedFetch([]);
    const counted = new Paydesk({
      baseUrl,
      merchantNo: m.merchant.no,
      accessKey: m.accessKey,
      secretKey: m.secret,
      fetch: once.fetcher,
    });
    const existing = await counted.collections.getByOutTradeNo('NODE-1001');
    once.calls.length = 0;
    const duplicate = await counted.collections
      .create({ out_trade_no: 'NODE-1001', amount: '5.00' })
      .catch((e) => e);
    expect(duplicate).toBeInstanceOf(PaydeskConflictError);
    expect(duplicate).toMatchObject({ status: 409, code: 'out_trade_no_taken', trade_no: existing.trade_no });
    expect(once.calls).toHaveLength(1);
    // Bad input: 422 naming the field, once.
    once.calls.length = 0;
    const invalid = await counted.collections
      .create({ out_trade_no: 'NODE-BAD', amount: '1.001' })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(PaydeskInvalidRequestError);
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.errors ?? {})).toContain('amount');
    expect(once.calls).toHaveLength(1);

    // Nobody listening: a connection error after the retries.
    const closed = new Paydesk({
      baseUrl: 'http://127.0.0.1:9',
      merchantNo: m.merchant.no,
      accessKey: m.accessKey,
      secretKey: m.secret,
      maxRetries: 1,
      retryDelayMs: 1,
    });
    await expect(closed.balance.get()).rejects.toBeInstanceOf(PaydeskConnectionError);
  });

  it('test key and live key: each sees its own mode only; a wrong secret key and a missing whitelist entry are refused', async () => {
    const live = new Paydesk({ baseUrl, merchantNo: m.merchant.no, ...liveKey });
    expect(live.testMode).toBe(false);
    // No live channel is open: the sandbox serves test mode only.
    await expect(live.collections.create({ out_trade_no: 'LIVE-1', amount: '10.00' })).rejects.toMatchObject({
      status: 422,
      code: 'channel_unavailable',
    });
    // The test order does not exist for the live key.
    const testOrder = await paydesk.collections.getByOutTradeNo('NODE-1001');
    await expect(live.collections.get(testOrder.trade_no)).rejects.toBeInstanceOf(PaydeskNotFoundError);
    expect(await live.balance.get()).toMatchObject({ available: '0.00', locked: '0.00' });

    const wrongSecret = new Paydesk({
      baseUrl,
      merchantNo: m.merchant.no,
      accessKey: m.accessKey,
      secretKey: 'not-it',
    });
    await expect(wrongSecret.balance.get()).rejects.toBeInstanceOf(PaydeskAuthenticationError);
    await expect(wrongSecret.balance.get()).rejects.toMatchObject({ status: 401, code: 'signature_invalid' });

    // An empty IP whitelist refuses every call.
    const unlisted = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      mode: 'test',
      whitelist: [],
    });
    const refused = new Paydesk({
      baseUrl,
      merchantNo: unlisted.merchant.no,
      accessKey: unlisted.accessKey,
      secretKey: unlisted.secret,
    });
    const error = await refused.balance.get().catch((e) => e);
    expect(error).toBeInstanceOf(PaydeskPermissionError);
    expect(error).toMatchObject({ status: 403, code: 'ip_not_allowed' });
  });

  it('has types generated from the current /gateway/openapi.json (npm run generate:types)', async () => {
    const document = (await ctx.app.inject('/gateway/openapi.json')).json();
    const committed = readFileSync(path.join(nodeClientDir, 'src/openapi.ts'), 'utf8');
    expect(await generateTypes(document), 'run: npm run generate:types -w @paydesk/node-client').toBe(
      committed,
    );
  });
});

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...CHILD_ENV, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const HAS_PYTHON = spawnSync('python3', ['--version'], { stdio: 'ignore' }).error === undefined;

describe('the Python client (paydesk.py) against the same server', { timeout: 180_000 }, () => {
  it.skipIf(!HAS_PYTHON)(
    'creates, pays, refunds, pays out (idempotently) and verifies callbacks',
    async () => {
      const { code, stdout, stderr } = await run('python3', [path.join(pythonClientDir, 'check_server.py')], {
        cwd: workDir,
        env: {
          PYTHONPATH: pythonClientDir,
          PAYDESK_BASE_URL: baseUrl,
          PAYDESK_MERCHANT_NO: m.merchant.no,
          PAYDESK_ACCESS_KEY: m.accessKey,
          PAYDESK_SECRET_KEY: m.secret,
          PAYDESK_WEBHOOK_SECRET: m.webhookSecret,
          PAYDESK_LIVE_ACCESS_KEY: liveKey.accessKey,
          PAYDESK_LIVE_SECRET_KEY: liveKey.secretKey,
        },
      });
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(report).toMatchObject({
        collection: { status: 'paid', livemode: false },
        callback: { type: 'collection.paid' },
        tampered_refused: true,
        refund: { status: 'processing', amount: '30.00' },
        refund_callback: { type: 'refund.succeeded' },
        payout_replayed: true,
        payout_same_trade_no: true,
        duplicate: { status: 409, code: 'out_trade_no_taken' },
        live: { status: 422, code: 'channel_unavailable' },
        wrong_secret: { status: 401, code: 'signature_invalid' },
      });
      expect(report.duplicate.trade_no).toBe(report.collection.trade_no);
      expect(await countPayouts('PY-P-1')).toBe(1);
    },
  );
  it.runIf(!HAS_PYTHON)('is skipped: python3 is not installed on this machine', () => {
    console.warn('client-libraries.test.ts: python3 not found, the Python client was not tested.');
  });
});

// `npm pack` builds the package (tsc: .js and .d.ts); a project installs the tarball and runs the
// reference's example with it, from plain JavaScript. Once per run: it does not depend on the database.
describe.skipIf(testDatabaseKind() !== 'pglite')(
  'the Node client as a developer installs it (npm pack)',
  () => {
    it(
      "packs, installs and runs the reference's example: create, pay, refund, verify callbacks",
      { timeout: 300_000 },
      async () => {
        const appDir = path.join(workDir, 'app');
        rmSync(appDir, { recursive: true, force: true });
        const packed = await run('npm', ['pack', '--pack-destination', workDir], {
          cwd: nodeClientDir,
          timeoutMs: 240_000,
        });
        expect(packed.code, packed.stderr).toBe(0);
        const tarball = readdirSync(workDir).find((name) => /^paydesk-node-client-.*\.tgz$/.test(name));
        expect(tarball).toBeDefined();
        mkdirSync(appDir);
        writeFileSync(
          path.join(appDir, 'package.json'),
          JSON.stringify({ name: 'shop', private: true, type: 'module' }),
        );
        const installed = await run(
          'npm',
          ['install', '--offline', '--no-audit', '--no-fund', path.join(workDir, tarball!)],
          {
            cwd: appDir,
          },
        );
        expect(installed.code, installed.stderr).toBe(0);

        // The reference's example (docs/samples/paydesk-node-client.mjs) with this merchant's values.
        const values: Record<keyof typeof EXAMPLE_PLACEHOLDERS, string> = {
          BASE_URL: baseUrl,
          MERCHANT_NO: m.merchant.no,
          ACCESS_KEY: m.accessKey,
          SECRET_KEY: m.secret,
          WEBHOOK_SECRET: m.webhookSecret,
        };
        let example: string = CLIENT_LIBRARY_EXAMPLES.node;
        for (const [name, value] of Object.entries(values)) {
          const placeholder = EXAMPLE_PLACEHOLDERS[name as keyof typeof EXAMPLE_PLACEHOLDERS];
          expect(example.split(placeholder).length - 1, `${placeholder} once`).toBe(1);
          example = example.split(placeholder).join(value);
        }
        writeFileSync(path.join(appDir, 'paydesk-node-client.mjs'), example);

        // Run it; when it prints the pay_url, pay there as the payer would.
        const child = spawn(process.execPath, ['paydesk-node-client.mjs'], {
          cwd: appDir,
          env: CHILD_ENV,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        let paying: Promise<void> | undefined;
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const payUrl = /pay it: (\S+)/.exec(output)?.[1];
          if (payUrl && !paying) paying = payOnSandboxPage(payUrl);
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        clearTimeout(timer);
        await paying;
        expect(code, output).toBe(0);
        expect(output).toMatch(/callback collection\.paid C\d+ \(verified\)/);
        expect(output).toMatch(/refund R\d+: processing/);
        expect(output).toMatch(/callback refund\.succeeded C\d+ \(verified\)/);
        expect(output).toContain('refunded 30.00 of 100.00');
      },
    );
  },
);
