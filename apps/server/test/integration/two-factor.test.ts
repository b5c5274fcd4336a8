import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import {
  CHALLENGE_FAILURES_PER_HOUR,
  CHALLENGE_TRIES_PER_MINUTE,
  CODE_FAILURES_PER_DAY,
} from '../../src/modules/security/index.ts';
import {
  confirmPassword,
  enableTwoFactor,
  freezeClock,
  PERIOD_MS,
  releaseClock,
  totpCode,
} from '../helpers/two-factor.ts';

let ctx: TestContext;
let merchantUsers: Awaited<ReturnType<typeof createMerchant>>['users'];

/** A fresh user of a fresh merchant for each scenario, so no test inherits another's two-factor state. */
async function newUser(): Promise<{ email: string; id: number }> {
  const { users: created } = await createMerchant(ctx.database.db, { roles: ['FINANCE'] });
  return { email: created.FINANCE.email, id: created.FINANCE.id };
}

/** Lets time pass while the user keeps working, so the session (120 min idle) stays alive. */
async function stayActive(client: TestClient, clock: ReturnType<typeof freezeClock>, ms: number) {
  for (let left = ms; left > 0; left -= 3_600_000) {
    clock.advance(Math.min(left, 3_600_000));
    expect((await client.get('/api/merchant/user')).statusCode).toBe(200);
  }
}

const HOUR_MS = 3_600_000;

/** A code the authenticator shows at none of the steps the server accepts now. */
async function wrongCode(secret: string): Promise<string> {
  const accepted = await Promise.all([-1, 0, 1].map((steps) => totpCode(secret, steps)));
  return ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code))!;
}

/**
 * Sends `count` wrong codes to the login challenge from one IP as fast as the minute's and the hour's limits
 * let it, moving the clock on instead of waiting: each answered 422. Hour n starts at the call's time + n h.
 * The owner's console session, if given, is used each hour so it stays alive.
 */
async function guessAtChallenge(
  clock: ReturnType<typeof freezeClock>,
  email: string,
  secret: string,
  count: number,
  owner?: TestClient,
) {
  const guesser = new TestClient(ctx.app);
  guesser.ip = '203.0.113.20';
  await guesser.login(email, TEST_PASSWORD);
  let hourStart = clock.now();
  for (let sent = 0; sent < count; sent++) {
    if (sent > 0 && sent % CHALLENGE_FAILURES_PER_HOUR === 0) {
      hourStart += HOUR_MS;
      clock.advance(hourStart - clock.now());
      if (owner) expect((await owner.get('/api/merchant/user')).statusCode).toBe(200);
    } else if (sent > 0 && sent % CHALLENGE_TRIES_PER_MINUTE === 0) clock.advance(60_000);
    const response = await guesser.post('/api/two-factor-challenge', { code: await wrongCode(secret) });
    expect(response.statusCode).toBe(422);
  }
}

/** The user's own security log, as the Security page lists it. */
const loggedEvents = async (client: TestClient, type: string) =>
  (await client.get(`/api/merchant/security-events?type=${type}`)).json().data as { type: string }[];

const userRow = async (id: number) => (await ctx.database.db.select().from(users).where(eq(users.id, id)))[0];

beforeAll(async () => {
  ctx = await createTestApp();
  merchantUsers = (await createMerchant(ctx.database.db, { roles: ['ROOT', 'VIEWER'] })).users;
});
afterAll(() => ctx.close());
afterEach(() => releaseClock());

const TWO_FACTOR_SETTINGS: [string, string][] = [
  ['POST', '/api/user/two-factor-authentication'],
  ['DELETE', '/api/user/two-factor-authentication'],
  ['GET', '/api/user/two-factor-qr-code'],
  ['GET', '/api/user/two-factor-secret-key'],
  ['POST', '/api/user/confirmed-two-factor-authentication'],
  ['GET', '/api/user/two-factor-recovery-codes'],
  ['POST', '/api/user/two-factor-recovery-codes'],
  ['GET', '/api/merchant/two-factor-secret-key'],
  ['POST', '/api/merchant/confirmed-two-factor-authentication'],
];

describe('password confirmation', () => {
  it.each(TWO_FACTOR_SETTINGS)('%s %s answers 401 without a session', async (method, url) => {
    const client = new TestClient(ctx.app);
    await client.csrf();
    const response = await client.request(method as 'GET', url, { body: method === 'GET' ? undefined : {} });
    expect(response.statusCode).toBe(401);
  });

  it.each(TWO_FACTOR_SETTINGS)('%s %s answers 423 before the password is confirmed', async (method, url) => {
    const client = await loginAs(ctx.app, merchantUsers.VIEWER.email, TEST_PASSWORD);
    const response = await client.request(method as 'GET', url, {
      body: method === 'GET' ? undefined : { code: '123456' },
    });
    expect(response.statusCode).toBe(423);
    expect(response.json()).toMatchObject({ message: 'Password confirmation required.' });
    const row = await userRow(merchantUsers.VIEWER.id);
    expect(row.twoFactorSecret).toBeNull();
  });

  it('answers 422 errors.password for a wrong password and 201 for the right one', async () => {
    const client = await loginAs(ctx.app, merchantUsers.VIEWER.email, TEST_PASSWORD);
    expect((await client.get('/api/user/confirmed-password-status')).json()).toEqual({ confirmed: false });

    const wrong = await client.post('/api/user/confirm-password', { password: 'not-it' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      message: 'The provided password was incorrect.',
      code: 'password_incorrect',
      errors: { password: ['The provided password was incorrect.'] },
    });
    expect((await client.get('/api/user/confirmed-password-status')).json()).toEqual({ confirmed: false });

    const missing = await client.post('/api/user/confirm-password', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ password: ['The password field is required.'] });

    const right = await client.post('/api/user/confirm-password', { password: TEST_PASSWORD });
    expect(right.statusCode).toBe(201);
    expect((await client.get('/api/user/confirmed-password-status')).json()).toEqual({ confirmed: true });
    // Fortify's ?seconds= narrows the window a client asks about.
    expect((await client.get('/api/user/confirmed-password-status?seconds=0')).json()).toEqual({
      confirmed: false,
    });
    expect((await client.get('/api/user/two-factor-qr-code')).statusCode).toBe(200);
  });

  it('lasts 10800 seconds, then the settings answer 423 again', async () => {
    const clock = freezeClock();
    const client = await loginAs(ctx.app, merchantUsers.VIEWER.email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    await stayActive(client, clock, 10_799_000);
    expect((await client.get('/api/user/two-factor-qr-code')).statusCode).toBe(200);
    clock.advance(2_000);
    expect((await client.get('/api/user/confirmed-password-status')).json()).toEqual({ confirmed: false });
    expect((await client.get('/api/user/two-factor-qr-code')).statusCode).toBe(423);
  });

  it('belongs to one session: another login of the same user is not confirmed', async () => {
    const first = await loginAs(ctx.app, merchantUsers.VIEWER.email, TEST_PASSWORD);
    await confirmPassword(first, TEST_PASSWORD);
    const second = await loginAs(ctx.app, merchantUsers.VIEWER.email, TEST_PASSWORD);
    expect((await second.get('/api/user/two-factor-secret-key')).statusCode).toBe(423);
  });

  it('answers 429 after 5 wrong passwords in a minute, even for the right one', async () => {
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/user/confirm-password', { password: `wrong-${i}` })).statusCode).toBe(
        422,
      );
    }
    const sixth = await client.post('/api/user/confirm-password', { password: TEST_PASSWORD });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('enabling two-factor', () => {
  it('enable -> QR code -> secret -> a wrong code 422 -> the right code 200', async () => {
    freezeClock();
    const { email, id } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);

    expect((await client.get('/api/user/two-factor-secret-key')).statusCode).toBe(404);
    expect((await client.get('/api/user/two-factor-qr-code')).json()).toEqual([]);

    const enabled = await client.post('/api/user/two-factor-authentication');
    expect(enabled.statusCode).toBe(200);
    expect((await client.get('/api/merchant/user')).json().data.two_factor_enabled).toBe(false);

    const qr = (await client.get('/api/user/two-factor-qr-code')).json();
    expect(qr.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const url = new URL(qr.url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Paydesk:${email}`);
    expect(url.searchParams.get('issuer')).toBe('Paydesk');
    const { secretKey } = (await client.get('/api/user/two-factor-secret-key')).json();
    expect(secretKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(url.searchParams.get('secret')).toBe(secretKey);

    const codes = (await client.get('/api/user/two-factor-recovery-codes')).json();
    expect(codes).toHaveLength(8);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{10}-[A-Za-z0-9]{10}$/);

    // Secrets at rest are ciphertext, not the values a user sees.
    const stored = await userRow(id);
    expect(stored.twoFactorSecret).not.toContain(secretKey);
    expect(stored.twoFactorRecoveryCodes).not.toContain(codes[0]);
    expect(stored.twoFactorConfirmedAt).toBeNull();

    const right = await totpCode(secretKey);
    const wrongCode = right === '000000' ? '111111' : '000000';
    const wrong = await client.post('/api/user/confirmed-two-factor-authentication', { code: wrongCode });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: 'invalid_code',
      errors: { code: ['The provided two factor authentication code was invalid.'] },
    });
    expect((await client.get('/api/merchant/user')).json().data.two_factor_enabled).toBe(false);

    const confirmed = await client.post('/api/user/confirmed-two-factor-authentication', { code: right });
    expect(confirmed.statusCode).toBe(200);
    expect((await client.get('/api/merchant/user')).json().data.two_factor_enabled).toBe(true);
    expect((await client.get('/api/user/meta')).json().data).toMatchObject({
      two_factor_enabled: true,
      two_factor_pending: false,
    });
  });

  it('keeps a pending secret when enable is called again, and replaces it with force', async () => {
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    await client.post('/api/user/two-factor-authentication');
    const first = (await client.get('/api/user/two-factor-secret-key')).json().secretKey;
    await client.post('/api/user/two-factor-authentication');
    expect((await client.get('/api/user/two-factor-secret-key')).json().secretKey).toBe(first);
    await client.post('/api/user/two-factor-authentication', { force: true });
    expect((await client.get('/api/user/two-factor-secret-key')).json().secretKey).not.toBe(first);
  });

  it('while the setup is pending, its secret and recovery codes are shown and regenerated without a code', async () => {
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    const { secretKey } = (await client.get('/api/merchant/two-factor-secret-key')).json().data;
    expect((await client.get('/api/user/two-factor-secret-key')).json()).toEqual({ secretKey });
    expect((await client.get('/api/user/two-factor-qr-code')).json().url).toContain(`secret=${secretKey}`);
    const first: string[] = (await client.get('/api/user/two-factor-recovery-codes')).json();
    expect(first).toHaveLength(8);
    const regenerated = await client.post('/api/user/two-factor-recovery-codes');
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json();
    expect(fresh).toHaveLength(8);
    expect(fresh.filter((code) => first.includes(code))).toEqual([]);
    expect((await client.get('/api/user/two-factor-recovery-codes')).json()).toEqual(fresh);
  });

  it('requires a code, and refuses one when no secret was issued', async () => {
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    const missing = await client.post('/api/user/confirmed-two-factor-authentication', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ code: ['The code field is required.'] });
    const noSecret = await client.post('/api/user/confirmed-two-factor-authentication', { code: '123456' });
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.json().errors).toEqual({
      code: ['The provided two factor authentication code was invalid.'],
    });
  });

  it('binds the same authenticator through the /api/merchant endpoints', async () => {
    freezeClock();
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    const bind = await client.get('/api/merchant/two-factor-secret-key');
    expect(bind.statusCode).toBe(200);
    const { data } = bind.json();
    expect(data).toMatchObject({ confirmed: false, url: expect.stringMatching(/^otpauth:\/\/totp\//) });
    expect(data.svg).toContain('<svg');
    // Asking again shows the same pending secret, which the Fortify endpoint also answers.
    expect((await client.get('/api/merchant/two-factor-secret-key')).json().data.secretKey).toBe(
      data.secretKey,
    );
    expect((await client.get('/api/user/two-factor-secret-key')).json().secretKey).toBe(data.secretKey);

    const wrong = await client.post('/api/merchant/confirmed-two-factor-authentication', { code: 'abc' });
    expect(wrong.statusCode).toBe(422);
    const confirmed = await client.post('/api/merchant/confirmed-two-factor-authentication', {
      code: await totpCode(data.secretKey),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data.two_factor_enabled).toBe(true);
    expect(confirmed.json().data.recovery_codes).toHaveLength(8);

    const again = new TestClient(ctx.app);
    expect((await again.login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });
  });

  it('confirming again on the console shows the recovery codes again, and the security log has the view', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    const { secretKey } = (await client.get('/api/merchant/two-factor-secret-key')).json().data;
    const first = await client.post('/api/merchant/confirmed-two-factor-authentication', {
      code: await totpCode(secretKey),
    });
    const recoveryCodes: string[] = first.json().data.recovery_codes;
    // Shown once as part of turning two-factor on: that is the enabling, not a view.
    expect(await loggedEvents(client, 'two_factor_enabled')).toHaveLength(1);
    expect(await loggedEvents(client, 'recovery_codes_viewed')).toEqual([]);

    clock.nextStep();
    const wrong = await client.post('/api/merchant/confirmed-two-factor-authentication', {
      code: await wrongCode(secretKey),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).not.toHaveProperty('data');
    const again = await client.post('/api/merchant/confirmed-two-factor-authentication', {
      code: await totpCode(secretKey),
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.recovery_codes).toEqual(recoveryCodes);
    expect(await loggedEvents(client, 'recovery_codes_viewed')).toHaveLength(1);
    expect(await loggedEvents(client, 'two_factor_enabled')).toHaveLength(1);

    // Fortify's confirm answers nothing, so it logs no view.
    clock.nextStep();
    const fortify = await client.post('/api/user/confirmed-two-factor-authentication', {
      code: await totpCode(secretKey),
    });
    expect(fortify.statusCode).toBe(200);
    expect(fortify.body).toBe('""');
    expect(await loggedEvents(client, 'recovery_codes_viewed')).toHaveLength(1);
  });

  it('regenerates recovery codes: the old ones stop working', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret, recoveryCodes } = await enableTwoFactor(client, TEST_PASSWORD);
    const nextCode = phone(clock, secret);
    const regenerated = await client.post('/api/user/two-factor-recovery-codes', { code: await nextCode() });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json();
    expect(fresh).toHaveLength(8);
    expect((await client.get(`/api/user/two-factor-recovery-codes?code=${await nextCode()}`)).json()).toEqual(
      fresh,
    );
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);

    const login = new TestClient(ctx.app);
    await login.login(email, TEST_PASSWORD);
    const stale = await login.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] });
    expect(stale.statusCode).toBe(422);
    expect((await login.post('/api/two-factor-challenge', { recovery_code: fresh[0] })).statusCode).toBe(204);
  });
});

describe('login with two-factor', () => {
  it('two_factor true -> still 401 -> challenge 204 -> 200, with a new session id at each step', async () => {
    freezeClock();
    const { email } = await newUser();
    const setup = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret } = await enableTwoFactor(setup, TEST_PASSWORD);

    const client = new TestClient(ctx.app);
    await client.csrf();
    const guestId = client.sessionCookie;
    const login = await client.post('/api/login', { email, password: TEST_PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ two_factor: true });
    const pendingId = client.sessionCookie!;
    expect(pendingId).toBeTruthy();
    expect(pendingId).not.toBe(guestId);
    expect((await client.get('/api/merchant/user')).statusCode).toBe(401);
    expect((await client.get('/api/user/meta')).statusCode).toBe(401);

    // The enable step spent this period's code; the authenticator's next one is within one step of drift.
    const challenge = await client.post('/api/two-factor-challenge', { code: await totpCode(secret, 1) });
    expect(challenge.statusCode).toBe(204);
    expect(challenge.body).toBe('');
    const loggedInId = client.sessionCookie!;
    expect(loggedInId).not.toBe(pendingId);
    const me = await client.get('/api/merchant/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ email, two_factor_enabled: true });

    // The pending session's id is dead.
    const stale = new TestClient(ctx.app);
    stale.cookies.set('paydesk_session', pendingId);
    expect((await stale.get('/api/merchant/user')).statusCode).toBe(401);
  });

  it('refuses a TOTP code used once already, and any older one', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    clock.nextStep();
    const code = await totpCode(secret);

    const first = new TestClient(ctx.app);
    await first.login(email, TEST_PASSWORD);
    expect((await first.post('/api/two-factor-challenge', { code })).statusCode).toBe(204);

    const replay = new TestClient(ctx.app);
    await replay.login(email, TEST_PASSWORD);
    const refused = await replay.post('/api/two-factor-challenge', { code });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      errors: { code: ['The provided two factor authentication code was invalid.'] },
    });
    expect(
      (await replay.post('/api/two-factor-challenge', { code: await totpCode(secret, -1) })).statusCode,
    ).toBe(422);
    expect((await replay.get('/api/merchant/user')).statusCode).toBe(401);
    clock.nextStep();
    expect(
      (await replay.post('/api/two-factor-challenge', { code: await totpCode(secret) })).statusCode,
    ).toBe(204);
  });

  it('allows one step of clock drift either way, not two', async () => {
    const clock = freezeClock();
    const { email, id } = await newUser();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    const tryCode = async (steps: number) => {
      // Start from a clean "last step" each time so only the drift decides.
      await ctx.database.db.update(users).set({ twoFactorLastStep: null }).where(eq(users.id, id));
      const client = new TestClient(ctx.app);
      await client.login(email, TEST_PASSWORD);
      return (await client.post('/api/two-factor-challenge', { code: await totpCode(secret, steps) }))
        .statusCode;
    };
    clock.advance(10 * PERIOD_MS);
    expect(await tryCode(-2)).toBe(422);
    expect(await tryCode(2)).toBe(422);
    expect(await tryCode(-1)).toBe(204);
    expect(await tryCode(1)).toBe(204);
    expect(await tryCode(0)).toBe(204);
  });

  it('accepts a recovery code once, replacing it with a fresh one', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const setup = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret, recoveryCodes } = await enableTwoFactor(setup, TEST_PASSWORD);

    const first = new TestClient(ctx.app);
    await first.login(email, TEST_PASSWORD);
    const used = await first.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[3] });
    expect(used.statusCode).toBe(204);
    expect((await first.get('/api/merchant/user')).statusCode).toBe(200);

    const second = new TestClient(ctx.app);
    await second.login(email, TEST_PASSWORD);
    const reused = await second.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[3] });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({
      errors: { recovery_code: ['The provided two factor recovery code was invalid.'] },
    });
    expect((await second.get('/api/merchant/user')).statusCode).toBe(401);

    await confirmPassword(first, TEST_PASSWORD);
    clock.nextStep();
    const now: string[] = (
      await first.get(`/api/user/two-factor-recovery-codes?code=${await totpCode(secret)}`)
    ).json();
    expect(now).toHaveLength(8);
    expect(now).not.toContain(recoveryCodes[3]);
    expect(now.filter((code) => recoveryCodes.includes(code))).toHaveLength(7);
    // The others still work.
    expect(
      (await second.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] })).statusCode,
    ).toBe(204);
  });

  it('answers the 6th try in a minute with 429, even with a right code', async () => {
    freezeClock();
    const { email } = await newUser();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    const client = new TestClient(ctx.app);
    await client.login(email, TEST_PASSWORD);
    const right = await totpCode(secret, 1);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/two-factor-challenge', { code: wrong })).statusCode).toBe(422);
    }
    const sixth = await client.post('/api/two-factor-challenge', { code: right });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await client.get('/api/merchant/user')).statusCode).toBe(401);
    // A new pending login of the same user does not reset the count.
    const again = new TestClient(ctx.app);
    await again.login(email, TEST_PASSWORD);
    expect((await again.post('/api/two-factor-challenge', { code: right })).statusCode).toBe(429);
  });

  it("someone else's wrong codes from another IP do not lock the real user out; the account has an hourly ceiling", async () => {
    freezeClock();
    const { email } = await newUser();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    const right = await totpCode(secret, 1);
    const wrong = right === '000000' ? '111111' : '000000';
    const attacker = new TestClient(ctx.app);
    attacker.ip = '203.0.113.9';
    await attacker.login(email, TEST_PASSWORD);
    for (let i = 0; i < 5; i++) {
      expect((await attacker.post('/api/two-factor-challenge', { code: wrong })).statusCode).toBe(422);
    }
    expect((await attacker.post('/api/two-factor-challenge', { code: wrong })).statusCode).toBe(429);
    const owner = new TestClient(ctx.app);
    owner.ip = '198.51.100.7';
    await owner.login(email, TEST_PASSWORD);
    expect((await owner.post('/api/two-factor-challenge', { code: right })).statusCode).toBe(204);

    // From many IPs together: the account's hourly ceiling ends the guessing.
    const { email: target } = await newUser();
    await enableTwoFactor(await loginAs(ctx.app, target, TEST_PASSWORD), TEST_PASSWORD);
    let throttled = 0;
    for (let i = 0; i < CHALLENGE_FAILURES_PER_HOUR / 5 + 1; i++) {
      const guesser = new TestClient(ctx.app);
      guesser.ip = `10.0.${Math.floor(i / 250)}.${i % 250}`;
      await guesser.login(target, TEST_PASSWORD);
      for (let j = 0; j < 5; j++) {
        const status = (await guesser.post('/api/two-factor-challenge', { code: wrong })).statusCode;
        if (status === 429) throttled += 1;
        else expect(status).toBe(422);
      }
    }
    expect(throttled).toBe(5);
  });

  it('the account takes 300 wrong codes a day from any IP, then even the right code waits for the next day', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    const start = clock.now();
    // Three hours at the hourly ceiling: each of the 300 is checked (422).
    await guessAtChallenge(clock, email, secret, CODE_FAILURES_PER_DAY);

    // The next hour the hourly ceiling is past, the day's is not: the owner, from elsewhere, waits too.
    clock.advance(start + 3 * HOUR_MS - clock.now());
    const owner = new TestClient(ctx.app);
    owner.ip = '198.51.100.7';
    await owner.login(email, TEST_PASSWORD);
    const refused = await owner.post('/api/two-factor-challenge', { code: await totpCode(secret) });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(21 * 3600);
    expect((await owner.get('/api/merchant/user')).statusCode).toBe(401);
    // Trying again and again says the same: refused tries do not spend the minute's five as well.
    for (let i = 0; i < 7; i++) {
      const again = await owner.post('/api/two-factor-challenge', { code: await totpCode(secret) });
      expect(again.statusCode).toBe(429);
      expect(Number(again.headers['retry-after'])).toBe(21 * 3600);
    }

    // A day after the first wrong code, the right one signs the owner in.
    clock.advance(start + 24 * HOUR_MS - clock.now());
    const nextDay = new TestClient(ctx.app);
    await nextDay.login(email, TEST_PASSWORD);
    expect(
      (await nextDay.post('/api/two-factor-challenge', { code: await totpCode(secret) })).statusCode,
    ).toBe(204);
  });

  it('wrong codes at the step-up, the payment password reset and the binding count toward the same daily ceiling', async () => {
    const clock = freezeClock();
    const { email } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret } = await enableTwoFactor(client, TEST_PASSWORD);
    clock.nextStep();
    const pay = { payment_password: 'pay-secret-1', payment_password_confirmation: 'pay-secret-1' };
    const set = await client.put('/api/merchant/payment-password', {
      password: TEST_PASSWORD,
      ...pay,
      code: await totpCode(secret),
    });
    expect(set.statusCode).toBe(200);
    const stepUp = async (code: string) =>
      client.post('/api/merchant/step-up/verify', { payment_password: pay.payment_password, code });

    // Three wrong codes in the signed-in console, then the rest of the day's at the login challenge.
    const wrong = await wrongCode(secret);
    expect((await stepUp(wrong)).json()).toMatchObject({ code: 'invalid_code' });
    const reset = await client.post('/api/merchant/payment-password/reset', {
      password: TEST_PASSWORD,
      payment_password: 'pay-secret-2',
      payment_password_confirmation: 'pay-secret-2',
      code: wrong,
    });
    expect(reset.json()).toMatchObject({ code: 'invalid_code' });
    const confirm = await client.post('/api/user/confirmed-two-factor-authentication', { code: wrong });
    expect(confirm.json()).toMatchObject({ code: 'invalid_code' });
    const start = clock.now();
    await guessAtChallenge(clock, email, secret, CODE_FAILURES_PER_DAY - 3, client);

    clock.advance(start + 3 * HOUR_MS - clock.now());
    const owner = new TestClient(ctx.app);
    owner.ip = '198.51.100.7';
    await owner.login(email, TEST_PASSWORD);
    expect((await owner.post('/api/two-factor-challenge', { code: await totpCode(secret) })).statusCode).toBe(
      429,
    );
    // The ceiling reached, the console's money actions refuse the right code as well.
    const refused = await stepUp(await totpCode(secret));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
  });

  it('answers 422 to a challenge without a pending login', async () => {
    const guest = new TestClient(ctx.app);
    await guest.csrf();
    const response = await guest.post('/api/two-factor-challenge', { code: '123456' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('code');

    const loggedIn = await loginAs(ctx.app, merchantUsers.ROOT.email, TEST_PASSWORD);
    const already = await loggedIn.post('/api/two-factor-challenge', { recovery_code: 'abc' });
    expect(already.statusCode).toBe(422);
    expect(already.json().errors).toHaveProperty('recovery_code');
  });

  it('refuses the challenge without the CSRF token', async () => {
    const { email } = await newUser();
    freezeClock();
    const { secret } = await enableTwoFactor(await loginAs(ctx.app, email, TEST_PASSWORD), TEST_PASSWORD);
    const client = new TestClient(ctx.app);
    await client.login(email, TEST_PASSWORD);
    const response = await client.request('POST', '/api/two-factor-challenge', {
      body: { code: await totpCode(secret, 1) },
      csrf: false,
    });
    expect(response.statusCode).toBe(419);
  });
});

/** The phone: each call moves the clock to the authenticator's next period and answers its code. */
function phone(clock: ReturnType<typeof freezeClock>, secret: string) {
  return async () => {
    clock.nextStep();
    return totpCode(secret);
  };
}

/** A second signed-in session of the same user (through the challenge), reading a list it is remembered for. */
async function secondSession(email: string, code: string): Promise<TestClient> {
  const other = new TestClient(ctx.app);
  other.ip = '198.51.100.30';
  expect((await other.login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });
  expect((await other.post('/api/two-factor-challenge', { code })).statusCode).toBe(204);
  // Read twice: the process now remembers the session, so the next read starts from memory.
  for (let i = 0; i < 2; i++) expect((await other.get('/api/merchant/fund-flows')).statusCode).toBe(200);
  return other;
}

/** Two-factor on, a live password confirmation, and a second session elsewhere. */
async function userWithAuthenticator() {
  const clock = freezeClock();
  const { email, id } = await newUser();
  const client = await loginAs(ctx.app, email, TEST_PASSWORD);
  const { secret, recoveryCodes } = await enableTwoFactor(client, TEST_PASSWORD);
  const nextCode = phone(clock, secret);
  const other = await secondSession(email, await nextCode());
  return { clock, email, id, client, secret, recoveryCodes, nextCode, other };
}

const isOn = async (client: TestClient) =>
  (await client.get('/api/merchant/user')).json().data.two_factor_enabled as boolean;

describe('turning two-factor off', () => {
  it('answers 423 without a live confirmation, even with a right code, which stays unspent', async () => {
    const clock = freezeClock();
    const { email, id } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret } = await enableTwoFactor(client, TEST_PASSWORD);
    await stayActive(client, clock, 10_801_000);
    const code = await totpCode(secret);

    const refused = await client.delete('/api/user/two-factor-authentication', { code });
    expect(refused.statusCode).toBe(423);
    expect(refused.json()).toMatchObject({ message: 'Password confirmation required.' });
    expect(await isOn(client)).toBe(true);

    await confirmPassword(client, TEST_PASSWORD);
    expect((await client.delete('/api/user/two-factor-authentication', { code })).statusCode).toBe(200);
    expect(await isOn(client)).toBe(false);
    const row = await userRow(id);
    expect(row.twoFactorSecret).toBeNull();
    expect(row.twoFactorRecoveryCodes).toBeNull();
    expect((await new TestClient(ctx.app).login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: false });
  });

  it('answers 422 to the password alone and leaves two-factor on', async () => {
    const { email, id, client, other } = await userWithAuthenticator();
    const before = await userRow(id);

    for (const body of [undefined, {}, { code: '' }, { code: '', recovery_code: '' }]) {
      const refused = await client.delete('/api/user/two-factor-authentication', body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        message: 'The code field is required.',
        errors: { code: ['The code field is required.'] },
      });
    }
    expect(await isOn(client)).toBe(true);
    expect(await userRow(id)).toEqual(before);
    expect((await other.get('/api/merchant/fund-flows')).statusCode).toBe(200);
    expect((await new TestClient(ctx.app).login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });
  });

  it('answers 422 errors.code to a wrong code and errors.recovery_code to a wrong recovery code', async () => {
    const { id, client, secret, other } = await userWithAuthenticator();
    const before = await userRow(id);

    const wrong = await client.delete('/api/user/two-factor-authentication', {
      code: await wrongCode(secret),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: 'invalid_code',
      errors: { code: ['The provided two factor authentication code was invalid.'] },
    });
    const malformed = await client.delete('/api/user/two-factor-authentication', { code: '12ab' });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toHaveProperty('code');
    const wrongRecovery = await client.delete('/api/user/two-factor-authentication', {
      recovery_code: 'abcdefghij-klmnopqrst',
    });
    expect(wrongRecovery.statusCode).toBe(422);
    expect(wrongRecovery.json()).toMatchObject({
      code: 'invalid_recovery_code',
      errors: { recovery_code: ['The provided two factor recovery code was invalid.'] },
    });

    expect(await isOn(client)).toBe(true);
    expect(await userRow(id)).toEqual(before);
    expect((await other.get('/api/merchant/fund-flows')).statusCode).toBe(200);
  });

  it("the current code turns it off and ends the user's other sessions on their very next request; this one stays", async () => {
    const { email, client, nextCode, other } = await userWithAuthenticator();
    const pending = new TestClient(ctx.app);
    expect((await pending.login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });

    const off = await client.delete('/api/user/two-factor-authentication', { code: await nextCode() });
    expect(off.statusCode).toBe(200);
    expect(await isOn(client)).toBe(false);
    expect((await client.get('/api/merchant/fund-flows')).statusCode).toBe(200);

    // The other session was remembered by this process: its next read is refused all the same.
    const ended = await other.get('/api/merchant/fund-flows');
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).not.toHaveProperty('data');
    expect((await other.get('/api/merchant/user')).statusCode).toBe(401);
    // A login waiting for its challenge ends too.
    expect((await pending.post('/api/two-factor-challenge', { code: await nextCode() })).statusCode).toBe(
      422,
    );
    expect((await pending.get('/api/merchant/user')).statusCode).toBe(401);
    expect((await client.get('/api/user/sessions')).json().data).toHaveLength(1);

    const [event] = await loggedEvents(client, 'two_factor_disabled');
    expect(event).toMatchObject({ detail: { method: 'code', other_sessions_ended: 1 } });
  });

  it('a recovery code turns it off (200), and that code works nowhere afterwards', async () => {
    const { email, client, recoveryCodes, other, clock } = await userWithAuthenticator();
    const off = await client.delete('/api/user/two-factor-authentication', {
      recovery_code: recoveryCodes[2],
    });
    expect(off.statusCode).toBe(200);
    expect(await isOn(client)).toBe(false);
    expect((await other.get('/api/merchant/user')).statusCode).toBe(401);
    const [event] = await loggedEvents(client, 'two_factor_disabled');
    expect(event).toMatchObject({ detail: { method: 'recovery_code', other_sessions_ended: 1 } });

    // On again with a new authenticator: the spent code neither signs in nor turns it off.
    clock.nextStep();
    await enableTwoFactor(client, TEST_PASSWORD);
    const login = new TestClient(ctx.app);
    await login.login(email, TEST_PASSWORD);
    expect(
      (await login.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[2] })).statusCode,
    ).toBe(422);
    const again = await client.delete('/api/user/two-factor-authentication', {
      recovery_code: recoveryCodes[2],
    });
    expect(again.statusCode).toBe(422);
    expect(await isOn(client)).toBe(true);
  });

  it('refuses a code already used (here to sign in), and an older one', async () => {
    const clock = freezeClock();
    const { email, id } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    const { secret } = await enableTwoFactor(client, TEST_PASSWORD);
    clock.nextStep();
    const used = await totpCode(secret);
    await secondSession(email, used);

    const replay = await client.delete('/api/user/two-factor-authentication', { code: used });
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toMatchObject({ code: 'invalid_code' });
    const older = await client.delete('/api/user/two-factor-authentication', {
      code: await totpCode(secret, -1),
    });
    expect(older.statusCode).toBe(422);
    expect(await isOn(client)).toBe(true);
    expect((await userRow(id)).twoFactorSecret).not.toBeNull();
  });

  it('counts wrong codes with the others: the 6th try in a minute answers 429, even with a right code', async () => {
    const { client, secret, nextCode } = await userWithAuthenticator();
    const right = await nextCode();
    for (let i = 0; i < 5; i++) {
      const wrong = await client.delete('/api/user/two-factor-authentication', {
        code: await wrongCode(secret),
      });
      expect(wrong.statusCode).toBe(422);
    }
    const sixth = await client.delete('/api/user/two-factor-authentication', { code: right });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await isOn(client)).toBe(true);
  });

  it('clears a setup never confirmed without a code, as before', async () => {
    const { email, id } = await newUser();
    const client = await loginAs(ctx.app, email, TEST_PASSWORD);
    await confirmPassword(client, TEST_PASSWORD);
    await client.post('/api/user/two-factor-authentication');
    expect((await userRow(id)).twoFactorSecret).not.toBeNull();
    expect((await client.delete('/api/user/two-factor-authentication')).statusCode).toBe(200);
    expect((await userRow(id)).twoFactorSecret).toBeNull();
  });
});

describe('replacing a confirmed authenticator', () => {
  /** The new secret, pending until a code of it confirms it (a confirmed one is not shown again). */
  const secretKeyOf = async (client: TestClient) =>
    (await client.get('/api/user/two-factor-secret-key')).json().secretKey as string;

  it('enable without force keeps it as it is, with no code asked', async () => {
    const { id, client } = await userWithAuthenticator();
    const before = await userRow(id);
    expect((await client.post('/api/user/two-factor-authentication')).statusCode).toBe(200);
    expect(await userRow(id)).toEqual(before);
    expect(await isOn(client)).toBe(true);
  });

  it('force answers 422 to the password alone and to a wrong code: the secret stays and stays on', async () => {
    const { id, client, secret, other } = await userWithAuthenticator();
    const before = await userRow(id);
    const alone = await client.post('/api/user/two-factor-authentication', { force: true });
    expect(alone.statusCode).toBe(422);
    expect(alone.json()).toMatchObject({ errors: { code: ['The code field is required.'] } });
    // Fortify clients may send force in the query string.
    const query = await client.post('/api/user/two-factor-authentication?force=1');
    expect(query.statusCode).toBe(422);
    const wrong = await client.post('/api/user/two-factor-authentication', {
      force: true,
      code: await wrongCode(secret),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'invalid_code' });

    expect(await isOn(client)).toBe(true);
    expect(await userRow(id)).toEqual(before);
    expect((await other.get('/api/merchant/fund-flows')).statusCode).toBe(200);
  });

  it('force with the current code issues a new secret and ends the other sessions; this one stays', async () => {
    const { client, secret, nextCode, other } = await userWithAuthenticator();
    const replaced = await client.post('/api/user/two-factor-authentication', {
      force: true,
      code: await nextCode(),
    });
    expect(replaced.statusCode).toBe(200);
    const fresh = await secretKeyOf(client);
    expect(fresh).not.toBe(secret);
    // The new authenticator is pending until a code of it confirms it.
    expect((await client.get('/api/user/meta')).json().data).toMatchObject({
      two_factor_enabled: false,
      two_factor_pending: true,
    });
    expect((await other.get('/api/merchant/fund-flows')).statusCode).toBe(401);
    expect((await client.get('/api/merchant/fund-flows')).statusCode).toBe(200);
    const [event] = await loggedEvents(client, 'two_factor_disabled');
    expect(event).toMatchObject({
      detail: { reason: 'new_secret', method: 'code', other_sessions_ended: 1 },
    });

    const confirmed = await client.post('/api/user/confirmed-two-factor-authentication', {
      code: await totpCode(fresh),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await isOn(client)).toBe(true);
  });

  it('force with a recovery code replaces it too, and the old recovery codes are gone', async () => {
    const { email, client, secret, recoveryCodes } = await userWithAuthenticator();
    const replaced = await client.post('/api/user/two-factor-authentication', {
      force: true,
      recovery_code: recoveryCodes[0],
    });
    expect(replaced.statusCode).toBe(200);
    const fresh = await secretKeyOf(client);
    expect(fresh).not.toBe(secret);
    expect(
      (await client.post('/api/user/confirmed-two-factor-authentication', { code: await totpCode(fresh) }))
        .statusCode,
    ).toBe(200);
    const login = new TestClient(ctx.app);
    await login.login(email, TEST_PASSWORD);
    expect(
      (await login.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] })).statusCode,
    ).toBe(422);
    expect(
      (await login.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[1] })).statusCode,
    ).toBe(422);
  });
});

/**
 * What a thief holds: a stolen signed-in session of a user with a confirmed authenticator, and the password,
 * which it confirms. Nothing it can read or regenerate from there may produce a code or a recovery code
 * that then turns two-factor off (DESIGN section 5).
 */
describe('a stolen session with the password, over a confirmed authenticator', () => {
  const SECRET_URLS = [
    '/api/user/two-factor-secret-key',
    '/api/user/two-factor-qr-code',
    '/api/merchant/two-factor-secret-key',
  ];
  const RECOVERY_CODES = '/api/user/two-factor-recovery-codes';
  const CODE_REQUIRED = {
    message: 'The code field is required.',
    errors: { code: ['The code field is required.'] },
  };

  /** The owner's two-factor on, and the thief's session (signed in elsewhere) with the password confirmed. */
  async function stolenSession() {
    const owner = await userWithAuthenticator();
    await confirmPassword(owner.other, TEST_PASSWORD);
    return { ...owner, thief: owner.other };
  }

  /** A new login answering the challenge with a recovery code: 204 when the code works. */
  async function signInWithRecoveryCode(email: string, recoveryCode: string): Promise<number> {
    const login = new TestClient(ctx.app);
    await login.login(email, TEST_PASSWORD);
    return (await login.post('/api/two-factor-challenge', { recovery_code: recoveryCode })).statusCode;
  }

  it.each(SECRET_URLS)(
    'GET %s answers 404 with a code: the secret is not shown again, to the thief nor the owner',
    async (url) => {
      const { id, client, thief, secret } = await stolenSession();
      const before = await userRow(id);
      for (const session of [thief, client]) {
        const response = await session.get(url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({
          message: 'Two-factor authentication is already confirmed; its secret is not shown again.',
          code: 'two_factor_already_confirmed',
        });
        expect(response.body).not.toContain(secret);
      }
      // The console's binding call issues no new secret either: the authenticator stays as it was.
      expect(await userRow(id)).toEqual(before);
      expect(await isOn(client)).toBe(true);
    },
  );

  it('reading the recovery codes takes a current code: none or a wrong one 422, the right one 200, once', async () => {
    const { id, client, thief, secret, recoveryCodes, nextCode } = await stolenSession();
    const before = await userRow(id);

    for (const query of ['', '?code=']) {
      const missing = await thief.get(`${RECOVERY_CODES}${query}`);
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject(CODE_REQUIRED);
    }
    const wrong = await thief.get(`${RECOVERY_CODES}?code=${await wrongCode(secret)}`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: 'invalid_code',
      errors: { code: ['The provided two factor authentication code was invalid.'] },
    });
    expect(await userRow(id)).toEqual(before);
    // Read once during the setup (enableTwoFactor), not since.
    expect(await loggedEvents(client, 'recovery_codes_viewed')).toHaveLength(1);

    // The holder of the authenticator reads them with its current code; the view is logged.
    const code = await nextCode();
    const shown = await client.get(`${RECOVERY_CODES}?code=${code}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(recoveryCodes);
    expect(await loggedEvents(client, 'recovery_codes_viewed')).toHaveLength(2);
    // The code is spent: not again here, nor to turn two-factor off.
    const replay = await thief.get(`${RECOVERY_CODES}?code=${code}`);
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toMatchObject({ code: 'invalid_code' });
    expect((await client.delete('/api/user/two-factor-authentication', { code })).statusCode).toBe(422);
    expect(await isOn(client)).toBe(true);
  });

  it('regenerating the recovery codes takes a current code or a recovery code; without one the old codes stay', async () => {
    const { email, id, client, thief, secret, recoveryCodes, nextCode } = await stolenSession();
    const before = await userRow(id);

    for (const body of [undefined, {}, { code: '' }, { code: '', recovery_code: '' }]) {
      const refused = await thief.post(RECOVERY_CODES, body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject(CODE_REQUIRED);
    }
    const wrong = await thief.post(RECOVERY_CODES, { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'invalid_code' });
    const wrongRecovery = await thief.post(RECOVERY_CODES, { recovery_code: 'abcdefghij-klmnopqrst' });
    expect(wrongRecovery.statusCode).toBe(422);
    expect(wrongRecovery.json()).toMatchObject({ code: 'invalid_recovery_code' });
    expect(await userRow(id)).toEqual(before);
    expect(await loggedEvents(client, 'recovery_codes_regenerated')).toEqual([]);
    // The old codes still work.
    expect(await signInWithRecoveryCode(email, recoveryCodes[0])).toBe(204);

    // With the current code: 200 and the new codes in the answer; the old ones stop working.
    const code = await nextCode();
    const regenerated = await client.post(RECOVERY_CODES, { code });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json();
    expect(fresh).toHaveLength(8);
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    expect(await signInWithRecoveryCode(email, recoveryCodes[1])).toBe(422);
    expect(await signInWithRecoveryCode(email, fresh[0])).toBe(204);
    // That code is spent.
    expect((await client.post(RECOVERY_CODES, { code })).statusCode).toBe(422);

    // With a recovery code (the phone lost): 200, and all of them are new again.
    const byRecovery = await client.post(RECOVERY_CODES, { recovery_code: fresh[1] });
    expect(byRecovery.statusCode).toBe(200);
    const newest: string[] = byRecovery.json();
    expect(newest.filter((c) => fresh.includes(c))).toEqual([]);
    expect(await signInWithRecoveryCode(email, fresh[2])).toBe(422);
    const events = await loggedEvents(client, 'recovery_codes_regenerated');
    expect(events).toMatchObject([{ detail: { method: 'recovery_code' } }, { detail: { method: 'code' } }]);
  });

  it('wrong codes here count with every other wrong code: the 6th in a minute answers 429, even a right one', async () => {
    const { client, thief, secret, nextCode } = await stolenSession();
    const right = await nextCode();
    for (let i = 0; i < 3; i++)
      expect((await thief.get(`${RECOVERY_CODES}?code=${await wrongCode(secret)}`)).statusCode).toBe(422);
    for (let i = 0; i < 2; i++)
      expect((await thief.post(RECOVERY_CODES, { code: await wrongCode(secret) })).statusCode).toBe(422);
    const sixth = await client.delete('/api/user/two-factor-authentication', { code: right });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await client.get(`${RECOVERY_CODES}?code=${right}`)).statusCode).toBe(429);
    expect(await isOn(client)).toBe(true);
  });

  it('password only -> what the endpoints give -> turning two-factor off: refused end to end', async () => {
    const { email, client, thief, clock } = await stolenSession();

    // Everything the thief's session can read or regenerate with the password alone.
    const answers = [];
    for (const url of SECRET_URLS) answers.push(await thief.get(url));
    answers.push(await thief.post(RECOVERY_CODES), await thief.get(RECOVERY_CODES));
    const loot = answers.map((response) => response.body).join('\n');
    const secrets = [...new Set(loot.match(/[A-Z2-7]{32}/g) ?? [])];
    const recoveryCodes = [...new Set(loot.match(/[A-Za-z0-9]{10}-[A-Za-z0-9]{10}/g) ?? [])];

    // Whatever it got, it tries to turn two-factor off with, in the authenticator's next period.
    clock.nextStep();
    const proofs: Record<string, string>[] = [
      ...(await Promise.all(secrets.map(async (secret) => ({ code: await totpCode(secret) })))),
      ...recoveryCodes.slice(0, 3).map((recoveryCode) => ({ recovery_code: recoveryCode })),
      {},
    ];
    const statuses: number[] = [];
    for (const proof of proofs)
      statuses.push((await thief.delete('/api/user/two-factor-authentication', proof)).statusCode);
    expect(statuses.filter((status) => status !== 422)).toEqual([]);
    expect({ secrets, recoveryCodes }).toEqual({ secrets: [], recoveryCodes: [] });

    // Two-factor stays on, the owner's session too; the next login still needs the challenge.
    expect(await isOn(client)).toBe(true);
    expect((await client.get('/api/merchant/fund-flows')).statusCode).toBe(200);
    expect((await new TestClient(ctx.app).login(email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });
  });
});
