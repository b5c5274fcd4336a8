import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { merchants, sessions, users } from '../../src/db/schema/index.ts';
import { statementsSentBy } from '../helpers/statements.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { createTestApp, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';
import {
  confirmPassword,
  enableTwoFactor,
  freezeClock,
  releaseClock,
  totpCode,
} from '../helpers/two-factor.ts';

// Each server process remembers the sessions it served so a read starts before its session is confirmed
// (modules/auth/session-memory.ts). Two apps on one database stand for two processes: whatever changes
// through one, or in the database, decides the very next read on the other, whose memory still holds the
// session as it was.

let ctx: TestContext;
let other: FastifyInstance;
let db: Db;

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  other = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
  await other.ready();
});

afterAll(async () => {
  await other.close();
  await ctx.close();
});
afterEach(() => releaseClock());

const LIST = '/api/merchant/fund-flows';

/** A FINANCE user signed in on the first process, whose session the process now remembers. */
async function rememberedFinance() {
  const { merchant, users: created } = await createMerchant(db, { roles: ['FINANCE'] });
  const client = await loginAs(ctx.app, created.FINANCE.email, TEST_PASSWORD);
  for (let i = 0; i < 2; i++) expect((await client.get(LIST)).statusCode).toBe(200);
  return { merchant, user: created.FINANCE, client };
}

/** The same browser talking to the other process. */
function onOther(client: TestClient): TestClient {
  const twin = new TestClient(other);
  for (const [name, value] of client.cookies) twin.cookies.set(name, value);
  return twin;
}

describe('a remembered session', () => {
  it('serves reads as before while nothing changed, the list and its sums exact', async () => {
    const { client } = await rememberedFinance();
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.get(LIST)));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ data: [], meta: { total: 0 } });
    }
  });

  it('is logged out on the very next read after a logout through the other process', async () => {
    const { client } = await rememberedFinance();
    expect((await onOther(client).post('/api/logout')).statusCode).toBe(204);
    const after = await client.get(LIST);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ message: 'Unauthenticated.', code: 'unauthenticated' });
  });

  it('is refused on the very next read after its role lost the permission', async () => {
    const { user, client } = await rememberedFinance();
    await db
      .update(users)
      .set({ roles: ['OPERATOR'] })
      .where(eq(users.id, user.id));
    const after = await client.get(LIST);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toMatchObject({ code: 'forbidden' });
    expect(after.json()).not.toHaveProperty('data');
  });

  it('is logged out on the very next read once its merchant is disabled', async () => {
    const { merchant, client } = await rememberedFinance();
    await db.update(merchants).set({ status: 'disabled' }).where(eq(merchants.id, merchant.id));
    expect((await client.get(LIST)).statusCode).toBe(401);
    expect((await client.get('/api/merchant/user')).statusCode).toBe(401);
  });

  it('is logged out on the very next read after a password change signed in elsewhere', async () => {
    const { user, client } = await rememberedFinance();
    const elsewhere = await loginAs(other, user.email, TEST_PASSWORD);
    const changed = await elsewhere.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'another-horse-10',
      password_confirmation: 'another-horse-10',
    });
    expect(changed.statusCode).toBeLessThan(300);
    expect((await client.get(LIST)).statusCode).toBe(401);
    expect((await elsewhere.get(LIST)).statusCode).toBe(200);
  });

  it('is logged out on the very next read after two-factor is turned off elsewhere', async () => {
    const clock = freezeClock();
    const { user, client } = await rememberedFinance();
    const { secret } = await enableTwoFactor(client, TEST_PASSWORD);
    for (let i = 0; i < 2; i++) expect((await client.get(LIST)).statusCode).toBe(200);
    clock.nextStep();
    const elsewhere = new TestClient(other);
    await elsewhere.login(user.email, TEST_PASSWORD);
    expect(
      (await elsewhere.post('/api/two-factor-challenge', { code: await totpCode(secret) })).statusCode,
    ).toBe(204);
    await confirmPassword(elsewhere, TEST_PASSWORD);
    clock.nextStep();
    const off = await elsewhere.delete('/api/user/two-factor-authentication', {
      code: await totpCode(secret),
    });
    expect(off.statusCode).toBe(200);
    expect((await client.get(LIST)).statusCode).toBe(401);
    expect((await elsewhere.get(LIST)).statusCode).toBe(200);
  });

  it('is logged out when its session row is gone, and the answer carries no data', async () => {
    const { client } = await rememberedFinance();
    await db
      .delete(sessions)
      .where(eq(sessions.userId, (await client.get('/api/merchant/user')).json().data.id));
    const after = await client.get(LIST);
    expect(after.statusCode).toBe(401);
    expect(after.body).not.toContain('"data"');
  });

  it('shows a changed profile on the very next read', async () => {
    const { user, client } = await rememberedFinance();
    await db.update(users).set({ name: 'Renamed elsewhere' }).where(eq(users.id, user.id));
    const after = await client.get('/api/merchant/user');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Renamed elsewhere');
  });

  it('slides its idle expiry forward on reads alone, at most once a minute, as a fresh read does', async () => {
    const { user, client } = await rememberedFinance();
    const ofUser = eq(sessions.userId, user.id);
    // Last active two minutes ago, expiring in a minute: the next read slides it to 120 minutes from now.
    await db
      .update(sessions)
      .set({
        lastActiveAt: new Date(Date.now() - 120_000),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .where(ofUser);
    expect((await client.get(LIST)).statusCode).toBe(200);
    const [slid] = await db.select().from(sessions).where(ofUser);
    expect(slid.expiresAt.getTime()).toBeGreaterThan(Date.now() + 110 * 60_000);
    expect(slid.lastActiveAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Within the minute, a read writes nothing.
    const before = new Date(Date.now() - 30_000);
    await db.update(sessions).set({ lastActiveAt: before }).where(ofUser);
    expect((await client.get(LIST)).statusCode).toBe(200);
    const [kept] = await db.select().from(sessions).where(ofUser);
    expect(kept.lastActiveAt.getTime()).toBe(before.getTime());
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'is confirmed inside the sums statement of a list read: no statement of its own',
    async () => {
      const { client } = await rememberedFinance();
      const reads = await statementsSentBy(async () => expect((await client.get(LIST)).statusCode).toBe(200));
      expect(reads).toHaveLength(2);
      expect(reads.filter((text) => text.includes('"sessions"'))).toEqual([
        expect.stringContaining('coalesce(sum('),
      ]);
    },
  );
});
