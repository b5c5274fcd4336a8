import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { sweepExpired } from '../../src/jobs/housekeeping.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { TestClient, loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let rootEmail: string;
let viewerEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT', 'VIEWER'] });
  rootEmail = users.ROOT.email;
  viewerEmail = users.VIEWER.email;
});
afterAll(() => ctx.close());

describe('CSRF (Sanctum contract)', () => {
  it('GET /api/csrf-cookie answers 204 with a script-readable XSRF-TOKEN cookie', async () => {
    const client = new TestClient(ctx.app);
    const response = await client.get('/api/csrf-cookie');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toBeTruthy();
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('refuses an unsafe request without the token with 419', async () => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const response = await client.request('POST', '/api/login', {
      body: { email: rootEmail, password: TEST_PASSWORD },
      csrf: false,
    });
    expect(response.statusCode).toBe(419);
    expect(response.json()).toMatchObject({ message: 'CSRF token mismatch.' });
    expect(client.sessionCookie).toBeUndefined();
  });

  it('refuses a wrong token, and a forged one that matches a forged cookie', async () => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const wrong = await client.post(
      '/api/login',
      { email: rootEmail, password: TEST_PASSWORD },
      { 'x-xsrf-token': 'nope' },
    );
    expect(wrong.statusCode).toBe(419);
    client.cookies.set('XSRF-TOKEN', 'forged.abc');
    const forged = await client.post('/api/login', { email: rootEmail, password: TEST_PASSWORD });
    expect(forged.statusCode).toBe(419);
  });

  it('lets the right token through', async () => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const response = await client.post('/api/login', { email: rootEmail, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /api/login', () => {
  it('logs in with JSON and answers two_factor false', async () => {
    const client = new TestClient(ctx.app);
    const response = await client.login(rootEmail, TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ two_factor: false });
    const session = response.cookies.find((c) => c.name === 'paydesk_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect((await client.get('/api/merchant/user')).statusCode).toBe(200);
  });

  it('logs in with multipart, as the console sends it', async () => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const boundary = '----paydesk';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = part('email', viewerEmail) + part('password', TEST_PASSWORD) + `--${boundary}--\r\n`;
    const response = await client.post('/api/login', body, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ two_factor: false });
    expect((await client.get('/api/merchant/user')).json().data.email).toBe(viewerEmail);
  });

  it('gives a wrong password and an unknown email the same 422', async () => {
    const a = new TestClient(ctx.app);
    a.ip = '10.0.0.21';
    const wrongPassword = await a.login(rootEmail, 'not-the-password');
    const b = new TestClient(ctx.app);
    b.ip = '10.0.0.22';
    const unknownEmail = await b.login('nobody@test.paydesk.test', 'not-the-password');
    expect(wrongPassword.statusCode).toBe(422);
    expect(unknownEmail.statusCode).toBe(422);
    const strip = (body: { message: string; errors: unknown }) => ({
      message: body.message,
      errors: body.errors,
    });
    expect(strip(wrongPassword.json())).toEqual(strip(unknownEmail.json()));
    expect(wrongPassword.json()).toMatchObject({
      message: 'These credentials do not match our records.',
      code: 'bad_credentials',
      errors: { email: ['These credentials do not match our records.'] },
    });
    expect(a.sessionCookie).toBeUndefined();
  });

  it('answers missing fields with the Laravel validation shape', async () => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const response = await client.post('/api/login', {});
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'The email field is required. (and 1 more error)',
      errors: { email: ['The email field is required.'], password: ['The password field is required.'] },
    });
  });

  it('answers the 6th try within a minute for one email and IP with 429 and Retry-After', async () => {
    const client = new TestClient(ctx.app);
    client.ip = '10.0.0.99';
    for (let i = 0; i < 5; i++) expect((await client.login(viewerEmail, 'wrong')).statusCode).toBe(422);
    const sixth = await client.login(viewerEmail, TEST_PASSWORD);
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another IP for the same email is not throttled by this counter.
    const other = new TestClient(ctx.app);
    other.ip = '10.0.0.100';
    expect((await other.login(viewerEmail, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

it('after 100 failed tries in an hour on one account, refuses it from any IP with 429', async () => {
  const { users } = await createMerchant(ctx.database.db, { roles: ['FINANCE'] });
  const email = users.FINANCE.email;
  // 99 failures recorded from many IPs, then the 100th from one more.
  await ctx.database.db.execute(
    sql`insert into rate_limits (key, count, reset_at) values (${`login-failures:${email}`}, 99, now() + interval '1 hour')`,
  );
  const client = new TestClient(ctx.app);
  client.ip = '10.0.1.1';
  expect((await client.login(email, 'wrong')).statusCode).toBe(422);
  const fresh = new TestClient(ctx.app);
  fresh.ip = '10.0.1.2';
  const refused = await fresh.login(email, TEST_PASSWORD);
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
  expect(fresh.sessionCookie).toBeUndefined();
});

describe('sessions', () => {
  it('issues a new session id at login; the old id is not logged in', async () => {
    const client = await loginAs(ctx.app, rootEmail, TEST_PASSWORD);
    const first = client.sessionCookie!;
    await client.login(rootEmail, TEST_PASSWORD);
    const second = client.sessionCookie!;
    expect(second).not.toBe(first);
    const stale = new TestClient(ctx.app);
    stale.cookies.set('paydesk_session', first);
    expect((await stale.get('/api/merchant/user')).statusCode).toBe(401);
    expect((await client.get('/api/merchant/user')).statusCode).toBe(200);
  });

  it('logout answers 204 and ends the session on the server', async () => {
    const client = await loginAs(ctx.app, rootEmail, TEST_PASSWORD);
    const token = client.sessionCookie!;
    const response = await client.post('/api/logout');
    expect(response.statusCode).toBe(204);
    expect(client.sessionCookie).toBeUndefined();
    const replay = new TestClient(ctx.app);
    replay.cookies.set('paydesk_session', token);
    expect((await replay.get('/api/merchant/user')).statusCode).toBe(401);
  });
});

describe('GET /api/merchant/user', () => {
  it('answers 401 Unauthenticated without a session', async () => {
    const response = await new TestClient(ctx.app).get('/api/merchant/user');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Unauthenticated.' });
    expect(response.json().request_id).toBe(response.headers['x-request-id']);
  });

  it('answers the user, roles, perms and merchant', async () => {
    const client = await loginAs(ctx.app, viewerEmail, TEST_PASSWORD);
    const { data } = (await client.get('/api/merchant/user')).json();
    expect(data).toMatchObject({
      email: viewerEmail,
      roles: ['VIEWER'],
      two_factor_enabled: false,
      merchant: { currency: 'CNY' },
    });
    expect(typeof data.id).toBe('number');
    expect(data.merchant.no).toMatch(/^MT/);
    expect(data.perms).toContain('funds:view');
    expect(data.perms).not.toContain('payout:create');
    expect(data).not.toHaveProperty('passwordHash');
  });
});

describe('health', () => {
  it('GET /healthz makes a database round trip', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: ctx.database.kind });
  });
});

describe('housekeeping', () => {
  it('sweeps expired sessions so their cookies stay dead', async () => {
    const client = await loginAs(ctx.app, rootEmail, TEST_PASSWORD);
    const id = sha256Hex(client.sessionCookie!);
    await ctx.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where id = ${id}`,
    );
    expect((await client.get('/api/merchant/user')).statusCode).toBe(401);
    await sweepExpired(ctx.database.db);
    const rows = await queryRows(ctx.database.db, sql`select id from sessions where id = ${id}`);
    expect(rows).toHaveLength(0);
  });
});
