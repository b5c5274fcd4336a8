import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { loginAs } from '../helpers/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// A change of several rows commits whole or not at all: a password change, the other sessions it ends and
// its security event; a profile change and its event. When the event cannot be written, nothing changed.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  // The security log refuses one event type on demand, as a full disk or a lost connection would.
  await ctx.database.db.execute(sql`create table refused_event_types (type text primary key)`);
  await ctx.database.db.execute(sql`
    create function refuse_security_event() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from refused_event_types where type = new.type) then
        raise exception 'security log unavailable';
      end if;
      return new;
    end $$`);
  await ctx.database.db.execute(sql`
    create trigger refuse_security_event before insert on security_events
    for each row execute function refuse_security_event()`);
});
afterAll(() => ctx.close());

const refuse = (type: string) =>
  ctx.database.db.execute(sql`insert into refused_event_types values (${type})`);
const allow = (type: string) =>
  ctx.database.db.execute(sql`delete from refused_event_types where type = ${type}`);

async function eventsOf(userId: number, type: string) {
  const rows = await queryRows<{ n: unknown }>(
    ctx.database.db,
    sql`select count(*)::int as n from security_events where user_id = ${userId} and type = ${type}`,
  );
  return Number(rows[0].n);
}

describe('security changes and their events commit together', () => {
  it('a password change whose event cannot be written changes nothing: old password, other session alive', async () => {
    const { users } = await createMerchant(ctx.database.db);
    const root = users.ROOT;
    const client = await loginAs(ctx.app, root.email, TEST_PASSWORD);
    const other = await loginAs(ctx.app, root.email, TEST_PASSWORD);
    const change = {
      current_password: TEST_PASSWORD,
      password: 'brand-new-password-7',
      password_confirmation: 'brand-new-password-7',
    };

    await refuse('password_changed');
    try {
      const failed = await client.put('/api/user/password', change);
      expect(failed.statusCode).toBe(500);
    } finally {
      await allow('password_changed');
    }
    expect(await eventsOf(root.id, 'password_changed')).toBe(0);
    expect((await other.get('/api/merchant/user')).statusCode).toBe(200);
    expect((await loginAs(ctx.app, root.email, TEST_PASSWORD)).sessionCookie).toBeDefined();

    const done = await client.put('/api/user/password', change);
    expect(done.statusCode).toBe(200);
    expect(await eventsOf(root.id, 'password_changed')).toBe(1);
    expect((await other.get('/api/merchant/user')).statusCode).toBe(401);
    expect((await loginAs(ctx.app, root.email, 'brand-new-password-7')).sessionCookie).toBeDefined();
  });

  it('a profile change whose event cannot be written changes nothing', async () => {
    const { users } = await createMerchant(ctx.database.db);
    const root = users.ROOT;
    const client = await loginAs(ctx.app, root.email, TEST_PASSWORD);
    await refuse('profile_updated');
    try {
      const failed = await client.put('/api/user/profile-information', {
        name: 'Renamed',
        email: root.email,
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await allow('profile_updated');
    }
    expect((await client.get('/api/merchant/user')).json().data.name).toBe(root.name);
    const done = await client.put('/api/user/profile-information', { name: 'Renamed', email: root.email });
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/merchant/user')).json().data.name).toBe('Renamed');
    expect(await eventsOf(root.id, 'profile_updated')).toBe(1);
  });
});
