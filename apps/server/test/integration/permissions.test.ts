import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let emails: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, {
    roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
  });
  emails = Object.fromEntries(Object.entries(users).map(([role, user]) => [role, user.email]));
});
afterAll(() => ctx.close());

describe('the role table is enforced by the server', () => {
  it.each(['FINANCE', 'OPERATOR', 'VIEWER'])(
    '%s is refused the access key with 403 and a message',
    async (role) => {
      const client = await loginAs(ctx.app, emails[role], TEST_PASSWORD);
      const response = await client.get('/api/merchant/access-key');
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/permission/i);
    },
  );

  it('ROOT reads the access key (none issued yet)', async () => {
    const client = await loginAs(ctx.app, emails.ROOT, TEST_PASSWORD);
    const response = await client.get('/api/merchant/access-key');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: null });
  });

  it('without a session the answer is 401, not 403', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/merchant/access-key' });
    expect(response.statusCode).toBe(401);
  });
});
