import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_VALUES } from '@paydesk/shared';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/client.ts';
import { sessions, users } from '../../src/db/schema/index.ts';
import { randomToken, sha256Hex } from '../../src/lib/crypto.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { createLedger, transactionWithRetry } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { sealRecoveryCodes, sealSecret } from '../../src/modules/security/authenticator.ts';
import { generateRecoveryCodes } from '../../src/modules/security/recovery-codes.ts';
import { generateTotpSecret } from '../../src/modules/security/totp.ts';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../../src/modules/auth/index.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { parseRoutes, type Route } from '../helpers/routes.ts';

// "Bad input of every kind gets a clear 4xx message and changes nothing; a 5xx is a bug."
// Every route the app registers is sent a battery of bad inputs as a signed-in ROOT user (the operator API
// with a valid operator token); every answer must be below 500, and every 4xx must be JSON with a message
// and a code of the error catalogue.
// A 4xx must also leave money, accounts, merchants and sessions exactly as they were.

type Probe = {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
};

const HUGE = 'x'.repeat(100 * 1024);
const PAYMENT_PASSWORD = 'pay-pass-135';

/** Values that are wrong for almost every field: wrong types, empty, huge, odd text, odd numbers. */
const BAD_VALUES: unknown[] = [
  null,
  -1,
  1.5,
  1e308,
  123456,
  true,
  [],
  ['a', 'b'],
  {},
  { nested: { deeper: [1] } },
  '',
  '   ',
  HUGE,
  '\u0000',
  '\ud800',
  '😀'.repeat(300),
  '1e3',
  '-0',
  '0.00',
  '0.001',
  '99999999999999999999',
  '999999999999999.999999',
  'NaN',
  'Infinity',
  '0x10',
  '１２３',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%00',
];

/** Fields no client may set; sent beside a valid body they must be ignored or refused. */
const UNKNOWN_FIELDS = {
  merchant_id: 1,
  merchantId: 1,
  roles: ['ROOT'],
  balance: '1000000.00',
  available: '1e9',
  status: 'active',
  is_admin: true,
};

/** Path parameters that are not an id of ours. */
const BAD_IDS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  '9223372036854775808',
  '%00',
  '%ZZ',
  "1'%20OR%20'1'='1",
  '%F0%9F%98%80',
  '1;select',
  'x'.repeat(5000),
];

/** Query strings for every GET route (and PUT routes that read their fields from the query string). */
const BAD_QUERIES = [
  'page=-1',
  'page=0',
  'page=abc',
  'page=1.5',
  'page=1e3',
  'page=99999999999999999999',
  'per_page=100000',
  'per_page=0',
  'per_page=-5',
  'page=1&page=2',
  'page[]=1',
  'page[a]=1',
  'type=bogus',
  'type=',
  'type=login&type=logout',
  'start_time=yesterday',
  'start_time=2026-02-30',
  'start_time=2026-13-01',
  'start_time=0000-01-01',
  'start_time=9999-12-31%2023:59:59',
  'start_time=275760-09-13',
  'end_time=2026-01-01&start_time=2026-12-31',
  'end_time=1e3',
  'cursor=!!!',
  'cursor=AAAA',
  `cursor=${Buffer.from('99999999999999.999999999999999999').toString('base64url')}`,
  `cursor=${Buffer.from('0.0').toString('base64url')}`,
  `cursor=${Buffer.from('999999999999999.999999999999999999').toString('base64url')}`,
  `cursor=${'A'.repeat(64)}`,
  `ref_no=${'x'.repeat(10_000)}`,
  'ref_no=%00',
  'seconds=-1',
  'seconds=abc',
  'seconds=1e400',
  'seconds=99999999999999999999',
  'merchant=../..',
  'merchant=',
  `merchant=${'M'.repeat(300)}`,
  'force=maybe',
  'password[]=a',
  'current_password[x]=1',
  'payment_password=%00',
  'code=1e5',
  '%ZZ=%ZZ',
  `q=${HUGE}`,
];

const BAD_TIME_ZONES = [
  'Mars/Olympus_Mons',
  '+99:00',
  'UTC+25',
  '-14:60',
  'GMT+1234',
  '   ',
  '../../etc/localtime',
  '\u0000',
  'x'.repeat(4000),
  'Asia/Shanghai, Europe/Paris',
];

/** Content types and raw bodies that are not what any route takes. */
const RAW_BODIES: { label: string; type?: string; payload?: string | Buffer }[] = [
  { label: 'malformed JSON', type: 'application/json', payload: '{"email": "a@b.c",' },
  { label: 'truncated JSON', type: 'application/json', payload: '{' },
  { label: 'JSON with a trailing comma', type: 'application/json', payload: '{"a": 1,}' },
  { label: 'empty JSON body', type: 'application/json', payload: '' },
  { label: 'JSON null', type: 'application/json', payload: 'null' },
  { label: 'JSON array', type: 'application/json', payload: '[1, 2, 3]' },
  { label: 'JSON string', type: 'application/json', payload: '"just a string"' },
  { label: 'JSON number', type: 'application/json', payload: '12345' },
  { label: 'JSON true', type: 'application/json', payload: 'true' },
  { label: 'proto pollution', type: 'application/json', payload: '{"__proto__": {"isAdmin": true}}' },
  {
    label: 'constructor pollution',
    type: 'application/json',
    payload: '{"constructor": {"prototype": {"isAdmin": true}}}',
  },
  { label: 'deep nesting', type: 'application/json', payload: '['.repeat(5000) + ']'.repeat(5000) },
  { label: 'duplicate keys', type: 'application/json', payload: '{"a": 1, "a": [2]}' },
  {
    label: 'invalid UTF-8',
    type: 'application/json',
    payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  },
  { label: 'JSON in UTF-16', type: 'application/json; charset=utf-16', payload: '{"a":1}' },
  {
    label: 'JSON over the body limit',
    type: 'application/json',
    payload: `{"a":"${'x'.repeat(1024 * 1024)}"}`,
  },
  { label: 'text/plain', type: 'text/plain', payload: 'hello' },
  {
    label: 'form-urlencoded',
    type: 'application/x-www-form-urlencoded',
    payload: 'email=a%40b.c&password=x',
  },
  { label: 'xml', type: 'application/xml', payload: '<a>1</a>' },
  { label: 'octet-stream', type: 'application/octet-stream', payload: Buffer.from([0, 1, 2, 3]) },
  { label: 'multipart without a boundary', type: 'multipart/form-data', payload: 'garbage' },
  {
    label: 'multipart, broken',
    type: 'multipart/form-data; boundary=XYZ',
    payload: '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end',
  },
  {
    label: 'multipart with a file',
    type: 'multipart/form-data; boundary=XYZ',
    payload:
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n' +
      '\x89PNG\r\n--XYZ--\r\n',
  },
  {
    label: 'multipart with two files',
    type: 'multipart/form-data; boundary=XYZ',
    payload:
      '--XYZ\r\nContent-Disposition: form-data; name="a"; filename="a.txt"\r\n\r\n1\r\n' +
      '--XYZ\r\nContent-Disposition: form-data; name="b"; filename="b.txt"\r\n\r\n2\r\n--XYZ--\r\n',
  },
  { label: 'content type without a body', type: 'application/json' },
  { label: 'unknown content type', type: 'application/x-paydesk', payload: '{}' },
  { label: 'no content type', payload: '{"a": 1}' },
];

function multipart(fields: Record<string, unknown>): { type: string; payload: string } {
  const boundary = 'PaydeskBoundary';
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`,
  );
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    payload: `${parts.join('')}--${boundary}--\r\n`,
  };
}

let ctx: TestContext;
let app: FastifyInstance;
let db: Db;
let operatorToken: string;
let root: { id: number; email: string; merchantNo: string; merchantId: number };
let otherMerchant: { no: string; id: number; rootEmail: string; rootId: number };
let usdtMerchantNo: string;
let freezeId: number;
let baseline: Partial<typeof users.$inferInsert>;
let routes: Route[];
const ledger = createLedger();

/** Money, accounts, merchants and sessions in one fingerprint: a 4xx must leave it as it was. */
async function fingerprint(): Promise<string> {
  const [row] = await queryRows<{ state: string }>(
    db,
    sql`select concat_ws('|',
      (select count(*) || ':' || md5(coalesce(string_agg(code || '=' || balance_minor, ';' order by id), ''))
         from ledger_accounts),
      (select count(*) from postings),
      (select count(*) || ':' || coalesce(sum(amount_minor), 0) from fund_flows),
      (select count(*) || ':' || coalesce(sum(amount_minor), 0) from holds where status = 'open'),
      (select count(*) from operator_actions where detail ? 'result'),
      (select md5(coalesce(string_agg(concat_ws(',', id, no, name, currency, status), ';' order by id), '')) from merchants),
      (select md5(coalesce(string_agg(concat_ws(',', id, merchant_id, name, email, password_hash, roles::text,
              perms::text, timezone, two_factor_secret, two_factor_recovery_codes, two_factor_confirmed_at,
              payment_password_hash), ';' order by id), '')) from users),
      (select count(*) from sessions where user_id is not null)
    ) as state`,
  );
  return row.state;
}

/** A signed-in ROOT session with a fresh password confirmation, made directly (no argon2, no throttle). */
async function signedInClient(): Promise<TestClient> {
  const client = new TestClient(app);
  const token = randomToken();
  await db.insert(sessions).values({
    id: sha256Hex(token),
    userId: root.id,
    passwordConfirmedAt: new Date(),
    ip: '127.0.0.1',
    expiresAt: new Date(Date.now() + SESSION_IDLE_MS),
  });
  client.cookies.set(SESSION_COOKIE, token);
  await client.csrf();
  knownState = null;
  return client;
}

/** Back to the starting line between routes: two-factor on, payment password set, no throttle counted. */
async function restoreState(): Promise<void> {
  await db.update(users).set(baseline).where(eq(users.id, root.id));
  await db.execute(sql`delete from rate_limits`);
  knownState = null;
}

function isJsonMessage(response: LightMyRequestResponse): boolean {
  if (!String(response.headers['content-type'] ?? '').includes('application/json')) return false;
  try {
    const body = response.json() as { message?: unknown; code?: unknown; errors?: unknown };
    if (typeof body.message !== 'string' || body.message.trim() === '') return false;
    // A stable code of the catalogue beside every message, for clients to react to.
    if (!(ERROR_CODE_VALUES as readonly unknown[]).includes(body.code)) return false;
    if (body.errors === undefined) return true;
    return Object.values(body.errors as Record<string, unknown>).every(
      (messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string' && m !== ''),
    );
  } catch {
    return false;
  }
}

const UNCHECKED_VALUE = 'A value in the request cannot be stored.';

type Violation = { probe: string; status: number; body: string };

/** The fingerprint as the last 4xx left it; null when something may have changed since. */
let knownState: string | null = null;

/** Sends a probe the way its route is called, and judges the answer. */
async function send(probe: Probe, client: TestClient | null, violations: Violation[]): Promise<void> {
  const before = (knownState ??= await fingerprint());
  knownState = null;
  const isOps = probe.url.startsWith('/ops/');
  const headers: Record<string, string> = { accept: 'application/json', ...probe.headers };
  if (isOps && !('authorization' in headers)) headers.authorization = `Bearer ${operatorToken}`;
  let response: LightMyRequestResponse;
  if (client && !isOps) {
    response = await client.request(probe.method as InjectOptions['method'], probe.url, {
      headers,
      ...(probe.payload !== undefined ? { body: probe.payload } : {}),
    });
  } else {
    response = await app.inject({
      method: probe.method as InjectOptions['method'],
      url: probe.url,
      headers,
      ...(probe.payload !== undefined ? { payload: probe.payload } : {}),
    });
  }
  const label = `${probe.method} ${probe.url.slice(0, 120)} [${probe.label}]`;
  const body = response.body.slice(0, 300);
  if (response.statusCode >= 500) {
    violations.push({ probe: label, status: response.statusCode, body });
    return;
  }
  if (response.statusCode >= 400) {
    if (probe.method !== 'HEAD' && !isJsonMessage(response)) {
      violations.push({ probe: `${label} (no JSON message)`, status: response.statusCode, body });
    }
    // The error handler's net for values the database refused: the input should have been checked first.
    if (body.includes(UNCHECKED_VALUE)) {
      violations.push({ probe: `${label} (reached the database)`, status: response.statusCode, body });
    }
    const after = await fingerprint();
    knownState = after;
    if (after !== before)
      violations.push({ probe: `${label} (changed state)`, status: response.statusCode, body });
  }
}

/** A valid body for each route that takes one: the mutations below start from it. */
function validBodies(): Record<string, Record<string, unknown>> {
  const step = { payment_password: PAYMENT_PASSWORD, code: '123456' };
  const move = { merchant: root.merchantNo, amount: '1.00', reason: 'bad input test', note: 'probe' };
  return {
    'POST /api/login': { email: root.email, password: TEST_PASSWORD },
    'POST /api/two-factor-challenge': { code: '123456' },
    'POST /api/user/confirm-password': { password: TEST_PASSWORD },
    'POST /api/user/two-factor-authentication': { force: false },
    'POST /api/user/confirmed-two-factor-authentication': { code: '123456' },
    'POST /api/merchant/confirmed-two-factor-authentication': { code: '123456' },
    'PUT /api/user/profile-information': { name: 'Root user', email: root.email, timezone: '+08:00' },
    'PUT /api/user/password': {
      current_password: TEST_PASSWORD,
      password: TEST_PASSWORD,
      password_confirmation: TEST_PASSWORD,
    },
    'PUT /api/merchant/payment-password': {
      current_payment_password: PAYMENT_PASSWORD,
      payment_password: 'pay-pass-246',
      payment_password_confirmation: 'pay-pass-246',
      code: '123456',
    },
    'POST /api/merchant/step-up/verify': step,
    'PUT /api/user/locale': { locale: 'vi' },
    'POST /api/merchant/notifications/read': { ids: [1, 2] },
    'POST /ops/v1/merchants': { name: 'Probe Co', currency: 'CNY', reason: 'bad input test' },
    'POST /ops/v1/users': {
      merchant: root.merchantNo,
      email: 'probe@bad-input.test',
      name: 'Probe',
      role: 'VIEWER',
      reason: 'bad input test',
    },
    'POST /api/merchant/callbacks/resend': {
      type: 'collection.paid',
      from: '2026-01-01',
      to: '2026-01-31 23:59',
    },
    'POST /ops/v1/funds/transfer-in': move,
    'POST /ops/v1/funds/transfer-out': move,
    'POST /ops/v1/funds/freeze': move,
    'POST /ops/v1/funds/unfreeze': { merchant: root.merchantNo, freeze: freezeId, reason: 'bad input test' },
  };
}

function validQueries(): Record<string, Record<string, string>> {
  return {
    'GET /api/merchant/fund-flows': {
      page: '1',
      per_page: '20',
      type: 'transfer_in',
      start_time: '2026-01-01',
      end_time: '2026-12-31 23:59',
      ref_no: 'OA00000001',
    },
    'GET /api/merchant/security-events': { page: '2', per_page: '5', type: 'login' },
    'GET /api/merchant/callbacks': {
      page: '1',
      per_page: '20',
      type: 'payout.failed',
      start_time: '2026-01-01',
      end_time: '2026-12-31 23:59',
    },
    'GET /api/user/confirmed-password-status': { seconds: '60' },
    'GET /api/merchant/notifications': { before: '100', limit: '10' },
    'GET /ops/v1/ledger/verify': { merchant: root.merchantNo },
  };
}

/** Routes that read fields from the query string besides GET routes. */
const READS_QUERY = new Set([
  'POST /api/user/two-factor-authentication',
  'PUT /api/user/password',
  'PUT /api/merchant/payment-password',
]);

/** Every probe of one route. HEAD is GET without the body: a sample of GET's probes. */
function probesFor(route: Route): Probe[] {
  if (route.method === 'HEAD') {
    return probesFor({ ...route, method: 'GET' })
      .filter((_, index) => index % 8 === 0)
      .map((probe) => ({ ...probe, method: 'HEAD' }));
  }
  const key = `${route.method} ${route.url}`;
  const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
  const probes: Probe[] = [];
  const json = (value: unknown) => JSON.stringify(value);
  const withParam = (id: string) => route.url.replace(/:[a-z_]+/gi, id);
  const url = withParam('1');

  if (route.url.includes(':')) {
    for (const id of BAD_IDS)
      probes.push({ label: `id ${id.slice(0, 20)}`, method: route.method, url: withParam(id) });
  }
  // Every bad query string where queries are read; a few elsewhere (they must be ignored there).
  const readsQuery = READS_QUERY.has(key) || key in validQueries();
  for (const query of readsQuery ? BAD_QUERIES : BAD_QUERIES.slice(0, 6)) {
    probes.push({ label: `query ${query.slice(0, 40)}`, method: route.method, url: `${url}?${query}` });
  }
  const queryTemplate = validQueries()[key];
  if (queryTemplate) {
    for (const field of Object.keys(queryTemplate)) {
      for (const value of ['', '-1', 'abc', '1e3', '99999999999999999999', HUGE.slice(0, 5000), '\u0000']) {
        const query = new URLSearchParams({ ...queryTemplate, [field]: value });
        probes.push({
          label: `query ${field}=${value.slice(0, 20)}`,
          method: route.method,
          url: `${url}?${query}`,
        });
      }
    }
  }
  // The merchant's data is read in the user's time zone, else X-Timezone's.
  const readsZone = route.method === 'GET' && route.url.startsWith('/api/merchant/');
  for (const zone of readsZone ? BAD_TIME_ZONES : BAD_TIME_ZONES.slice(0, 2)) {
    probes.push({
      label: `X-Timezone ${zone.slice(0, 20)}`,
      method: route.method,
      url,
      headers: { 'x-timezone': zone },
    });
  }
  if (route.url.startsWith('/ops/')) {
    for (const authorization of [
      '',
      'Bearer',
      'Bearer a b',
      'Basic dXNlcjpwYXNz',
      `Bearer ${'x'.repeat(8000)}`,
    ]) {
      probes.push({
        label: `authorization ${authorization.slice(0, 12)}`,
        method: route.method,
        url,
        headers: { authorization },
      });
    }
    for (const operator of ['\u0001', 'x'.repeat(65), '<script>', 'robert"); drop table users; --']) {
      probes.push({
        label: `x-operator ${operator.slice(0, 12)}`,
        method: route.method,
        url,
        headers: { 'x-operator': operator },
      });
    }
  }
  if (!hasBody) return probes;

  if (route.url.startsWith('/api/')) {
    for (const token of ['', '%', '%E0%A4%A', 'a.b', 'x'.repeat(10_000)]) {
      probes.push({
        label: `X-XSRF-TOKEN ${token.slice(0, 10)}`,
        method: route.method,
        url,
        headers: { 'x-xsrf-token': token },
      });
    }
  }

  for (const raw of RAW_BODIES) {
    probes.push({
      label: raw.label,
      method: route.method,
      url,
      headers: raw.type ? { 'content-type': raw.type } : {},
      payload: raw.payload,
    });
  }
  const template = validBodies()[key] ?? { name: 'a', amount: '1.00', code: '123456' };
  const jsonHeaders = { 'content-type': 'application/json' };
  for (const field of Object.keys(template)) {
    const { [field]: _removed, ...without } = template;
    probes.push({
      label: `without ${field}`,
      method: route.method,
      url,
      headers: jsonHeaders,
      payload: json(without),
    });
    for (const value of BAD_VALUES) {
      probes.push({
        label: `${field}=${json(value)?.slice(0, 30)}`,
        method: route.method,
        url,
        headers: jsonHeaders,
        payload: json({ ...template, [field]: value }),
      });
    }
  }
  probes.push({
    label: 'unknown fields',
    method: route.method,
    url,
    headers: jsonHeaders,
    payload: `{${json({ ...template, ...UNKNOWN_FIELDS }).slice(1, -1)},"__proto__":{"polluted":true}}`,
  });
  if (route.url.startsWith('/ops/v1/funds/') && 'amount' in template) {
    // Six decimals: minor units beyond bigint.
    for (const amount of ['999999999999999.999999', '9223372036854.775808', '0.0000001']) {
      probes.push({
        label: `USDT amount ${amount}`,
        method: route.method,
        url,
        headers: jsonHeaders,
        payload: json({ ...template, merchant: usdtMerchantNo, amount }),
      });
    }
  }
  const form = multipart({ ...template, extra: ['x'] });
  probes.push({
    label: 'multipart form',
    method: route.method,
    url,
    headers: { 'content-type': form.type },
    payload: form.payload,
  });
  if (['PUT /api/user/password', 'PUT /api/merchant/payment-password'].includes(key)) {
    // These read their fields from the query string too (the spec's console sends them there).
    for (const field of Object.keys(template)) {
      for (const value of ['', HUGE.slice(0, 5000), '\u0000']) {
        const query = new URLSearchParams(
          Object.entries({ ...template, [field]: value }).map(([k, v]): [string, string] => [k, String(v)]),
        );
        probes.push({
          label: `query ${field}=${value.slice(0, 10)}`,
          method: route.method,
          url: `${url}?${query}`,
        });
      }
    }
  }
  return probes;
}

/** Routes that end the session they are called with run last, so they do not cut the others short. */
const ENDS_SESSION = new Set(['POST /api/logout', 'POST /api/login', 'POST /api/two-factor-challenge']);

beforeAll(async () => {
  ctx = await createTestApp();
  app = ctx.app;
  db = ctx.database.db;
  operatorToken = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  routes = parseRoutes(app.printRoutes({ commonPrefix: false }));

  const mine = await createMerchant(db, { roles: ['ROOT'] });
  root = {
    id: mine.users.ROOT.id,
    email: mine.users.ROOT.email,
    merchantNo: mine.merchant.no,
    merchantId: mine.merchant.id,
  };
  const theirs = await createMerchant(db, { roles: ['ROOT'] });
  otherMerchant = {
    no: theirs.merchant.no,
    id: theirs.merchant.id,
    rootEmail: theirs.users.ROOT.email,
    rootId: theirs.users.ROOT.id,
  };
  usdtMerchantNo = (await createMerchant(db, { roles: [], currency: 'USDT' })).merchant.no;

  for (const merchantId of [root.merchantId, otherMerchant.id]) {
    await transactionWithRetry(db, (tx) =>
      ledger.post(tx, {
        merchantId,
        type: 'transfer_in',
        amountMinor: 1_000_000n,
        refType: 'test',
        refId: `seed-${merchantId}`,
        refNo: `SEED${merchantId}`,
        idempotencyKey: `bad-input:seed:${merchantId}`,
      }),
    );
  }
  const frozen = await transactionWithRetry(db, (tx) =>
    ledger.hold(tx, {
      merchantId: root.merchantId,
      type: 'funds_frozen',
      amountMinor: 100n,
      refType: 'test',
      refId: 'freeze',
      idempotencyKey: 'bad-input:freeze',
    }),
  );
  freezeId = frozen.hold.id;

  baseline = {
    name: 'Root user',
    email: root.email,
    timezone: null,
    passwordHash: mine.users.ROOT.passwordHash,
    twoFactorSecret: sealSecret(ctx.config.appKey, generateTotpSecret()),
    twoFactorRecoveryCodes: sealRecoveryCodes(ctx.config.appKey, generateRecoveryCodes()),
    twoFactorConfirmedAt: new Date(),
    twoFactorLastStep: null,
    paymentPasswordHash: await hashPassword(PAYMENT_PASSWORD),
    paymentPasswordFailures: 0,
    paymentLockedUntil: null,
  };
  await restoreState();
});
afterAll(() => ctx.close());

describe('the route table', () => {
  it('lists every route the app registers (the battery covers all of them)', () => {
    for (const route of routes) {
      expect(
        app.hasRoute({ method: route.method as 'GET', url: route.url }),
        `${route.method} ${route.url}`,
      ).toBe(true);
    }
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/login',
        'GET /api/merchant/fund-flows/:id',
        'PUT /api/merchant/payment-password',
        'POST /ops/v1/funds/transfer-in',
        'GET /ops/v1/ledger/verify',
      ]),
    );
    expect(routes.length).toBeGreaterThan(40);
  });
});

describe('bad input never answers 5xx', () => {
  it(`every route, as ROOT and as an operator (${testDatabaseKind()})`, { timeout: 120_000 }, async () => {
    const violations: Violation[] = [];
    const ordered = [...routes].sort(
      (a, b) =>
        Number(ENDS_SESSION.has(`${a.method} ${a.url}`)) - Number(ENDS_SESSION.has(`${b.method} ${b.url}`)),
    );
    let sent = 0;
    const startedAt = Date.now();
    for (const route of ordered) {
      await restoreState();
      let client = await signedInClient();
      for (const probe of probesFor(route)) {
        // A probe that ended the session (logout) gets the next one a fresh session.
        if (!client.sessionCookie) client = await signedInClient();
        await send(probe, client, violations);
        sent += 1;
      }
    }
    console.info(
      `bad-input battery (${testDatabaseKind()}): ${sent} requests in ${Date.now() - startedAt} ms`,
    );
    expect(violations).toEqual([]);
  });

  it('anonymous callers, whatever they send, get a 4xx with a message (or the public answer)', async () => {
    const violations: Violation[] = [];
    for (const route of routes) {
      for (const raw of RAW_BODIES.slice(0, 6)) {
        await send(
          {
            label: `anonymous ${raw.label}`,
            method: route.method,
            url: route.url.replace(/:[a-z_]+/gi, '1'),
            headers: {
              ...(raw.type ? { 'content-type': raw.type } : {}),
              authorization: '',
              cookie: 'paydesk_session=%; XSRF-TOKEN=%E0%A4%A',
              'x-xsrf-token': '%E0%A4%A',
            },
            payload: ['GET', 'HEAD'].includes(route.method) ? undefined : raw.payload,
          },
          null,
          violations,
        );
      }
    }
    // Methods no route takes, on every path.
    for (const url of new Set(routes.map((route) => route.url.replace(/:[a-z_]+/gi, '1')))) {
      for (const method of ['PATCH', 'OPTIONS', 'DELETE', 'PUT']) {
        if (routes.some((route) => route.method === method && route.url.replace(/:[a-z_]+/gi, '1') === url))
          continue;
        await send(
          {
            label: 'no such method',
            method,
            url,
            headers: { 'content-type': 'application/json' },
            payload: '{}',
          },
          null,
          violations,
        );
      }
    }
    expect(violations).toEqual([]);
  });
});

describe('random bodies and query strings (fast-check)', () => {
  it(`never answer 5xx (${testDatabaseKind()})`, { timeout: 60_000 }, async () => {
    const seed = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);
    console.info(
      `bad-input property test (${testDatabaseKind()}): seed ${seed} (replay with BAD_INPUT_SEED=${seed})`,
    );
    await restoreState();
    let client = await signedInClient();
    const templates = validBodies();
    const fieldNames = [...new Set(Object.values(templates).flatMap((body) => Object.keys(body)))];
    const withBody = routes.filter((route) => !['GET', 'HEAD'].includes(route.method));
    const reads = routes.filter((route) => route.method === 'GET');
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.stringMatching(/^-?\d{0,25}(\.\d{0,8})?(e[+-]?\d{1,3})?$/),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(...BAD_VALUES.filter((v) => v !== HUGE)),
    );
    const body = fc.record({
      route: fc.constantFrom(...withBody),
      fromTemplate: fc.boolean(),
      fields: fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 4 }),
      raw: fc.option(fc.jsonValue({ maxDepth: 3 }), { freq: 4 }),
    });
    const query = fc.record({
      route: fc.constantFrom(...reads),
      params: fc.dictionary(
        fc.constantFrom(
          'page',
          'per_page',
          'type',
          'start_time',
          'end_time',
          'ref_no',
          'cursor',
          'seconds',
          'merchant',
        ),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 30 }),
          fc.integer().map(String),
          fc.double().map(String),
        ),
        { maxKeys: 4 },
      ),
      id: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 25 }), fc.bigInt().map(String)),
      zone: fc.option(fc.string({ maxLength: 20 })),
    });
    const violations: Violation[] = [];
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, query), async (input) => {
        if (!client.sessionCookie) client = await signedInClient();
        const count = violations.length;
        if ('fields' in input) {
          const key = `${input.route.method} ${input.route.url}`;
          const payload =
            input.raw !== null
              ? input.raw
              : { ...(input.fromTemplate ? templates[key] : {}), ...input.fields };
          await send(
            {
              label: 'random body',
              method: input.route.method,
              url: input.route.url,
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify(payload),
            },
            client,
            violations,
          );
        } else {
          const search = new URLSearchParams(input.params).toString();
          const path = input.route.url.replace(/:[a-z_]+/gi, encodeURIComponent(input.id));
          await send(
            {
              label: 'random query',
              method: 'GET',
              url: `${path}?${search}`,
              headers: input.zone !== null ? { 'x-timezone': input.zone } : {},
            },
            client,
            violations,
          );
        }
        expect(violations.slice(count)).toEqual([]);
      }),
      { seed, numRuns: 300, endOnFailure: true },
    );
  });
});

describe("another merchant's objects, asked for directly", () => {
  it('answer exactly as objects that do not exist: 404 for an entry, nothing in a search or the security log', async () => {
    await restoreState();
    const stranger = await loginAs(app, otherMerchant.rootEmail, TEST_PASSWORD);
    const theirEntryId = (await stranger.get('/api/merchant/fund-flows')).json().data[0].id as number;
    const client = await signedInClient();

    const theirs = await client.get(`/api/merchant/fund-flows/${theirEntryId}`);
    const missing = await client.get('/api/merchant/fund-flows/999999999');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(missing.json().message);

    const search = (await client.get(`/api/merchant/fund-flows?ref_no=SEED${otherMerchant.id}`)).json();
    expect(search.data).toEqual([]);
    expect(search.meta).toMatchObject({ total: 0, sums: { money_in: '0.00', money_out: '0.00' } });

    const events = (await client.get('/api/merchant/security-events?type=login&per_page=100')).json();
    expect(events.data.map((e: { user: { id: number } | null }) => e.user?.id)).not.toContain(
      otherMerchant.rootId,
    );
    expect(
      (await stranger.get('/api/merchant/security-events?type=login')).json().meta.total,
    ).toBeGreaterThan(0);
  });
});
