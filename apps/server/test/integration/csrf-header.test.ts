import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let client: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
  client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
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
