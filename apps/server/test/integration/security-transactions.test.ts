import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import {
  confirmPassword,
  enableTwoFactor,
  freezeClock,
  releaseClock,
  totpCode,
} from '../helpers/two-factor.ts';

// A change of several rows commits whole or not at all: a password change, the other sessions it ends and
// its security event; a profile change and its event; every two-factor change and its event, the code it
// spends included. When the event cannot be written, nothing changed.

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
afterEach(() => releaseClock());

const refuse = (type: string) =>
  ctx.database.db.execute(sql`insert into refused_event_types values (${type})`);
const allow = (type: string) =>
  ctx.database.db.execute(sql`delete from refused_event_types where type = ${type}`);

/** Runs `change` while the security log refuses events of `type`: it must answer 500. */
async function failsWithoutItsEvent(type: string, change: () => Promise<{ statusCode: number }>) {
  await refuse(type);
  try {
    expect((await change()).statusCode).toBe(500);
  } finally {
    await allow(type);
  }
}

/** A user with two-factor on and a live password confirmation, with the authenticator's secret. */
async function userWithTwoFactor() {
  const root = (await createMerchant(ctx.database.db)).users.ROOT;
  const client = await loginAs(ctx.app, root.email, TEST_PASSWORD);
  const { secret, recoveryCodes } = await enableTwoFactor(client, TEST_PASSWORD);
  return { root, client, secret, recoveryCodes };
}

/** A pending secret (a confirmed one is not shown again). */
const secretKeyOf = async (client: TestClient) =>
  (await client.get('/api/user/two-factor-secret-key')).json().secretKey;

/** The recovery codes, read with the authenticator's code `steps` periods ahead (each code works once). */
const recoveryCodesOf = async (client: TestClient, secret: string, steps = 1) =>
  (await client.get(`/api/user/two-factor-recovery-codes?code=${await totpCode(secret, steps)}`)).json();

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

describe('two-factor changes and their events commit together', () => {
  it('a confirmation whose event cannot be written leaves two-factor off and the code unspent', async () => {
    freezeClock();
    const root = (await createMerchant(ctx.database.db)).users.ROOT;
    const client = await loginAs(ctx.app, root.email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    await client.post('/api/user/two-factor-authentication');
    const code = await totpCode(await secretKeyOf(client));

    await failsWithoutItsEvent('two_factor_enabled', () =>
      client.post('/api/user/confirmed-two-factor-authentication', { code }),
    );
    expect((await client.get('/api/user/meta')).json().data).toMatchObject({
      two_factor_enabled: false,
      two_factor_pending: true,
    });
    expect(await eventsOf(root.id, 'two_factor_enabled')).toBe(0);

    // The same code still works: the failed attempt did not spend it.
    const done = await client.post('/api/user/confirmed-two-factor-authentication', { code });
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user/meta')).json().data.two_factor_enabled).toBe(true);
    expect(await eventsOf(root.id, 'two_factor_enabled')).toBe(1);
  });

  it('turning two-factor off whose event cannot be written leaves it on, the code unspent and the other session alive', async () => {
    const clock = freezeClock();
    const { root, client, secret } = await userWithTwoFactor();
    clock.nextStep();
    const elsewhere = new TestClient(ctx.app);
    await elsewhere.login(root.email, TEST_PASSWORD);
    expect(
      (await elsewhere.post('/api/two-factor-challenge', { code: await totpCode(secret) })).statusCode,
    ).toBe(204);
    clock.nextStep();
    const code = await totpCode(secret);
    await failsWithoutItsEvent('two_factor_disabled', () =>
      client.delete('/api/user/two-factor-authentication', { code }),
    );
    expect((await client.get('/api/user/meta')).json().data.two_factor_enabled).toBe(true);
    expect((await elsewhere.get('/api/merchant/user')).statusCode).toBe(200);
    expect((await new TestClient(ctx.app).login(root.email, TEST_PASSWORD)).json()).toEqual({
      two_factor: true,
    });

    expect((await client.delete('/api/user/two-factor-authentication', { code })).statusCode).toBe(200);
    expect((await client.get('/api/user/meta')).json().data.two_factor_enabled).toBe(false);
    expect((await elsewhere.get('/api/merchant/user')).statusCode).toBe(401);
    expect(await eventsOf(root.id, 'two_factor_disabled')).toBe(1);
  });

  it('a new secret over a confirmed one whose event cannot be written keeps the old secret on and the recovery code unspent', async () => {
    freezeClock();
    const { root, client, secret, recoveryCodes } = await userWithTwoFactor();
    const proof = { force: true, recovery_code: recoveryCodes[0] };
    await failsWithoutItsEvent('two_factor_disabled', () =>
      client.post('/api/user/two-factor-authentication', proof),
    );
    expect((await client.get('/api/user/meta')).json().data.two_factor_enabled).toBe(true);
    // The old secret still proves the holder, and the recovery codes are as they were.
    expect(await recoveryCodesOf(client, secret)).toEqual(recoveryCodes);

    expect((await client.post('/api/user/two-factor-authentication', proof)).statusCode).toBe(200);
    expect(await secretKeyOf(client)).not.toBe(secret);
    expect(await eventsOf(root.id, 'two_factor_disabled')).toBe(1);
  });

  it('new recovery codes whose event cannot be written leave the old ones in place and the code unspent', async () => {
    const clock = freezeClock();
    const { root, client, secret, recoveryCodes } = await userWithTwoFactor();
    const code = await totpCode(secret, 1);
    await failsWithoutItsEvent('recovery_codes_regenerated', () =>
      client.post('/api/user/two-factor-recovery-codes', { code }),
    );
    expect(await recoveryCodesOf(client, secret)).toEqual(recoveryCodes);

    clock.nextStep();
    const regenerated = await client.post('/api/user/two-factor-recovery-codes', {
      code: await totpCode(secret, 1),
    });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json();
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    expect(await eventsOf(root.id, 'recovery_codes_regenerated')).toBe(1);
  });

  it('a recovery code whose event cannot be written signs nobody in and stays usable', async () => {
    const clock = freezeClock();
    const { root, client, secret, recoveryCodes } = await userWithTwoFactor();
    const login = new TestClient(ctx.app);
    await login.login(root.email, TEST_PASSWORD);
    const useCode = () => login.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] });

    await failsWithoutItsEvent('recovery_code_used', useCode);
    expect((await login.get('/api/merchant/user')).statusCode).toBe(401);
    expect(await recoveryCodesOf(client, secret)).toEqual(recoveryCodes);
    expect(await eventsOf(root.id, 'recovery_code_used')).toBe(0);

    expect((await useCode()).statusCode).toBe(204);
    expect((await login.get('/api/merchant/user')).statusCode).toBe(200);
    clock.nextStep();
    expect(await recoveryCodesOf(client, secret)).not.toContain(recoveryCodes[0]);
    expect(await eventsOf(root.id, 'recovery_code_used')).toBe(1);
  });
});
