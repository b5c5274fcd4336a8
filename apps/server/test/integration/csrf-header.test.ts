import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let client: TestClient;
let rootEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
  rootEmail = users.ROOT.email;
  client = await loginAs(ctx.app, rootEmail, TEST_PASSWORD);
});
afterAll(() => ctx.close());

describe('an X-XSRF-TOKEN header that is not a token', () => {
  it.each([
    ['a lone %', '%'],
    ['a truncated escape', '%E0%A4%A'],
    ['an escape of no hex', 'abc%zz'],
    ['a thousand %', '%'.repeat(1000)],
    ['10 KB of text', 'x'.repeat(10_000)],
  ])('%s answers 419 and changes nothing', async (_label, header) => {
    const response = await client.request('PUT', '/api/user/profile-information', {
      headers: { 'x-xsrf-token': header },
      body: { name: 'Changed by a forged request', email: 'forged@x.test' },
    });
    expect(response.statusCode).toBe(419);
    expect(response.json().message).toBe('CSRF token mismatch.');
    expect((await client.get('/api/merchant/user')).json().data.name).not.toBe('Changed by a forged request');
  });

  it('the cookie sent URL-encoded, as axios does, still works', async () => {
    const token = client.cookies.get('XSRF-TOKEN')!;
    const response = await client.request('PUT', '/api/user/profile-information', {
      headers: { 'x-xsrf-token': encodeURIComponent(token).replace(/\./g, '%2E') },
      body: { name: 'Renamed', email: (await client.get('/api/merchant/user')).json().data.email },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('a console API path spelled with percent-escapes ("/%61pi/login" is the router\'s /api/login)', () => {
  it('is CSRF-checked like /api/: a cross-site login or logout without the token answers 419', async () => {
    const stranger = new TestClient(ctx.app);
    const login = await stranger.request('POST', '/%61pi/login', {
      body: { email: rootEmail, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(419);
    expect(stranger.sessionCookie).toBeUndefined();

    const logout = await client.request('POST', '/ap%69/logout', { csrf: false });
    expect(logout.statusCode).toBe(419);
    expect((await client.get('/api/merchant/user')).statusCode).toBe(200);
  });

  it('carries the session like /api/', async () => {
    expect((await client.get('/%61pi/merchant/user')).statusCode).toBe(200);
    expect(
      (await client.request('POST', '/%61pi/user/confirm-password', { body: { password: TEST_PASSWORD } }))
        .statusCode,
    ).toBe(201);
  });
});
