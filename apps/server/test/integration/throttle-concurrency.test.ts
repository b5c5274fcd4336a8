import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

// The failure ceilings hold when the tries arrive together: each try is counted before its password is
// checked, so twenty at once cannot all read a count taken before any of them failed.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const statuses = (responses: { statusCode: number }[]) =>
  responses.map((r) => r.statusCode).sort((a, b) => a - b);

describe(`failure ceilings under concurrent tries (${testDatabaseKind()})`, () => {
  it('confirm-password: 20 wrong passwords at once from one session get 5 checks, then 429', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
    const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post('/api/user/confirm-password', { password: `wrong-${i}` }),
      ),
    );
    expect(statuses(responses)).toEqual([...Array(5).fill(422), ...Array(15).fill(429)]);
    // The right password a moment later is still refused: the minute's five tries are spent.
    expect((await client.post('/api/user/confirm-password', { password: TEST_PASSWORD })).statusCode).toBe(
      429,
    );
  });

  it('a right password gives its try back: five right ones in a row never lock the user out', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
    const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
    for (let i = 0; i < 4; i++) {
      expect((await client.post('/api/user/confirm-password', { password: 'wrong' })).statusCode).toBe(422);
    }
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/user/confirm-password', { password: TEST_PASSWORD })).statusCode).toBe(
        201,
      );
    }
  });

  it('password change: 20 wrong current passwords at once get 5 checks, then 429', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['ROOT'] });
    const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.put('/api/user/password', {
          current_password: `wrong-${i}`,
          password: 'a-new-password-1',
          password_confirmation: 'a-new-password-1',
        }),
      ),
    );
    expect(statuses(responses)).toEqual([...Array(5).fill(422), ...Array(15).fill(429)]);
  });

  it('login: the hourly ceiling of 100 failures per account holds against tries from 20 IPs at once', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['VIEWER'] });
    const email = users.VIEWER.email;
    await ctx.database.db.execute(
      sql`insert into rate_limits (key, count, reset_at) values (${`login-failures:${email}`}, 97, now() + interval '1 hour')`,
    );
    const clients = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const client = new TestClient(ctx.app);
        client.ip = `10.9.0.${i + 1}`;
        await client.csrf();
        return client;
      }),
    );
    const responses = await Promise.all(clients.map((client) => client.login(email, `wrong-${client.ip}`)));
    expect(statuses(responses)).toEqual([...Array(3).fill(422), ...Array(17).fill(429)]);
  });

  it('login: a right password does not count as a failure', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['VIEWER'] });
    const email = users.VIEWER.email;
    await ctx.database.db.execute(
      sql`insert into rate_limits (key, count, reset_at) values (${`login-failures:${email}`}, 99, now() + interval '1 hour')`,
    );
    for (let i = 0; i < 3; i++) await loginAs(ctx.app, email, TEST_PASSWORD);
    const wrong = new TestClient(ctx.app);
    expect((await wrong.login(email, 'wrong')).statusCode).toBe(422);
    expect((await new TestClient(ctx.app).login(email, TEST_PASSWORD)).statusCode).toBe(429);
  });
});
