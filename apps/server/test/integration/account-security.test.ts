import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import {
  confirmPassword,
  enableTwoFactor,
  freezeClock,
  releaseClock,
  totpCode,
} from '../helpers/two-factor.ts';

let ctx: TestContext;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function newMerchant(roles: ('ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER')[] = ['ROOT']) {
  return (await createMerchant(ctx.database.db, { roles })).users;
}

/** A client that says which browser it is, logged in. */
async function loginWithAgent(email: string, userAgent: string, ip = '127.0.0.1'): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  client.ip = ip;
  const original = client.request.bind(client);
  client.request = (method, url, options = {}) =>
    original(method, url, { ...options, headers: { 'user-agent': userAgent, ...options.headers } });
  const response = await client.login(email, TEST_PASSWORD);
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return client;
}

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());
afterEach(() => releaseClock());

describe('PUT /api/user/profile-information', () => {
  it('updates name and email (200) and the user call shows them', async () => {
    const { ROOT } = await newMerchant();
    const client = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const email = `renamed.${ROOT.id}@test.paydesk.test`;
    const response = await client.put('/api/user/profile-information', { name: 'Zhang Wei', email });
    expect(response.statusCode).toBe(200);
    expect((await client.get('/api/merchant/user')).json().data).toMatchObject({ name: 'Zhang Wei', email });
    // The new email is the login from now on.
    expect((await new TestClient(ctx.app).login(email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the Laravel 422 shape for a missing name, a long name and a bad email, changing nothing', async () => {
    const { ROOT } = await newMerchant();
    const client = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const missing = await client.put('/api/user/profile-information', { email: 'not-an-email' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      message: 'The name field is required. (and 1 more error)',
      code: 'validation_failed',
      errors: {
        name: ['The name field is required.'],
        email: ['The email field must be a valid email address.'],
      },
      request_id: expect.any(String),
    });
    const long = await client.put('/api/user/profile-information', {
      name: 'x'.repeat(256),
      email: ROOT.email,
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toEqual({ name: ['The name field must not be greater than 255 characters.'] });
    const blank = await client.put('/api/user/profile-information', { name: '', email: '' });
    expect(blank.json().errors).toEqual({
      name: ['The name field is required.'],
      email: ['The email field is required.'],
    });
    expect((await client.get('/api/merchant/user')).json().data).toMatchObject({
      name: 'ROOT user',
      email: ROOT.email,
    });
  });

  it('refuses an email another user has, in any letter case and of any merchant', async () => {
    const mine = await newMerchant(['ROOT', 'VIEWER']);
    const theirs = await newMerchant();
    const client = await loginAs(ctx.app, mine.ROOT.email, TEST_PASSWORD);
    for (const email of [mine.VIEWER.email, theirs.ROOT.email.toUpperCase()]) {
      const response = await client.put('/api/user/profile-information', { name: 'Me', email });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ email: ['The email has already been taken.'] });
    }
    // Keeping one's own email (even re-cased) is not "taken".
    const own = await client.put('/api/user/profile-information', {
      name: 'Me',
      email: mine.ROOT.email.toUpperCase(),
    });
    expect(own.statusCode).toBe(200);
  });

  it('saves the time zone (UTC offset or IANA name), answers it from /api/user/meta, and clears it', async () => {
    const { VIEWER } = await newMerchant(['VIEWER']);
    const client = await loginAs(ctx.app, VIEWER.email, TEST_PASSWORD);
    const meta = async () => (await client.get('/api/user/meta')).json().data;
    expect((await meta()).timezone).toBeNull();

    const save = (timezone: string | null) =>
      client.put('/api/user/profile-information', { name: VIEWER.name, email: VIEWER.email, timezone });
    expect((await save('+7')).statusCode).toBe(200);
    expect((await meta()).timezone).toBe('+07:00');
    expect((await save('asia/shanghai')).statusCode).toBe(200);
    expect((await meta()).timezone).toBe('Asia/Shanghai');
    expect((await client.get('/api/merchant/user')).json().data.timezone).toBe('Asia/Shanghai');

    const bad = await save('Mars/Olympus');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['timezone']);
    expect((await save('+15:00')).statusCode).toBe(422);
    expect((await meta()).timezone).toBe('Asia/Shanghai');

    // Leaving it out keeps it (a plain Fortify client sends only name and email); "" clears it.
    expect(
      (await client.put('/api/user/profile-information', { name: 'V', email: VIEWER.email })).statusCode,
    ).toBe(200);
    expect((await meta()).timezone).toBe('Asia/Shanghai');
    expect((await save('')).statusCode).toBe(200);
    expect((await meta()).timezone).toBeNull();
  });

  it('answers 401 without a session and 419 without the CSRF token', async () => {
    const guest = new TestClient(ctx.app);
    await guest.csrf();
    expect(
      (await guest.put('/api/user/profile-information', { name: 'a', email: 'a@b.co' })).statusCode,
    ).toBe(401);
    const { ROOT } = await newMerchant();
    const client = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const response = await client.request('PUT', '/api/user/profile-information', {
      body: { name: 'a', email: 'a@b.co' },
      csrf: false,
    });
    expect(response.statusCode).toBe(419);
  });
});

describe('GET /api/user/meta', () => {
  it('answers the account security state', async () => {
    const { FINANCE } = await newMerchant(['FINANCE']);
    const client = await loginAs(ctx.app, FINANCE.email, TEST_PASSWORD);
    expect((await client.get('/api/user/meta')).json()).toEqual({
      data: {
        timezone: null,
        two_factor_enabled: false,
        two_factor_pending: false,
        two_factor_confirmed_at: null,
        payment_password_set: false,
        payment_locked_until: null,
        password_confirmed: false,
        password_confirmed_until: null,
      },
    });
    await confirmPassword(client, TEST_PASSWORD);
    await client.post('/api/user/two-factor-authentication');
    const data = (await client.get('/api/user/meta')).json().data;
    expect(data).toMatchObject({
      two_factor_pending: true,
      two_factor_enabled: false,
      password_confirmed: true,
    });
    const until = new Date(data.password_confirmed_until).getTime();
    expect(until - Date.now()).toBeGreaterThan(10_700_000);
    expect(until - Date.now()).toBeLessThanOrEqual(10_800_000);
    expect((await new TestClient(ctx.app).get('/api/user/meta')).statusCode).toBe(401);
  });
});

describe('PUT /api/user/password', () => {
  it('answers the issue messages for a wrong current password, a mismatch and a short password', async () => {
    const { ROOT } = await newMerchant();
    const client = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const wrong = await client.put('/api/user/password', {
      current_password: 'not-mine',
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      message: 'The provided password does not match your current password.',
      errors: { current_password: ['The provided password does not match your current password.'] },
    });
    const mismatch = await client.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'new-password-1',
      password_confirmation: 'new-password-2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors).toEqual({ password: ['Confirm password does not match password'] });
    const short = await client.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.json().errors).toEqual({ password: ['The password field must be at least 8 characters.'] });
    const empty = await client.put('/api/user/password', {});
    expect(empty.json()).toMatchObject({
      message: 'The current password field is required. (and 1 more error)',
      errors: {
        current_password: ['The current password field is required.'],
        password: ['The password field is required.'],
      },
    });
    // Nothing changed: the old password still logs in.
    expect((await new TestClient(ctx.app).login(ROOT.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('changes the password: the other session ends, this one stays', async () => {
    const { OPERATOR } = await newMerchant(['OPERATOR']);
    const here = await loginAs(ctx.app, OPERATOR.email, TEST_PASSWORD);
    const elsewhere = await loginAs(ctx.app, OPERATOR.email, TEST_PASSWORD);
    expect((await elsewhere.get('/api/merchant/user')).statusCode).toBe(200);

    const response = await here.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    expect(response.statusCode).toBe(200);
    expect((await here.get('/api/merchant/user')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/merchant/user')).statusCode).toBe(401);

    expect((await new TestClient(ctx.app).login(OPERATOR.email, TEST_PASSWORD)).statusCode).toBe(422);
    expect((await new TestClient(ctx.app).login(OPERATOR.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('accepts the fields as a query string, as the spec console sends them', async () => {
    const { VIEWER } = await newMerchant(['VIEWER']);
    const client = await loginAs(ctx.app, VIEWER.email, TEST_PASSWORD);
    const query = new URLSearchParams({
      current_password: TEST_PASSWORD,
      password: 'from-the-query',
      password_confirmation: 'from-the-query',
    });
    const response = await client.put(`/api/user/password?${query}`);
    expect(response.statusCode).toBe(200);
    expect((await new TestClient(ctx.app).login(VIEWER.email, 'from-the-query')).statusCode).toBe(200);
  });

  it('also ends a login of the same user still waiting for its two-factor challenge', async () => {
    freezeClock();
    const { FINANCE } = await newMerchant(['FINANCE']);
    const here = await loginAs(ctx.app, FINANCE.email, TEST_PASSWORD);
    const { secret } = await enableTwoFactor(here, TEST_PASSWORD);
    const pending = new TestClient(ctx.app);
    expect((await pending.login(FINANCE.email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });

    await here.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'after-the-change',
      password_confirmation: 'after-the-change',
    });
    const challenge = await pending.post('/api/two-factor-challenge', { code: await totpCode(secret, 1) });
    expect(challenge.statusCode).toBe(422);
    expect((await pending.get('/api/merchant/user')).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('lists the user’s sessions with browser, IP and last activity, marking this one', async () => {
    const { FINANCE } = await newMerchant(['FINANCE']);
    const desktop = await loginWithAgent(FINANCE.email, CHROME, '203.0.113.7');
    await loginWithAgent(FINANCE.email, SAFARI_IOS, '198.51.100.23');
    const response = await desktop.get('/api/user/sessions');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toHaveLength(2);
    const current = data.find((s: { is_current: boolean }) => s.is_current);
    const other = data.find((s: { is_current: boolean }) => !s.is_current);
    expect(current).toMatchObject({ browser: 'Chrome 126', platform: 'Windows', ip: '203.0.113.7' });
    expect(other).toMatchObject({ browser: 'Safari 17', platform: 'iOS', ip: '198.51.100.23' });
    expect(new Date(current.last_active_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The handle is not the session's secret or its stored id.
    expect(JSON.stringify(data)).not.toContain(desktop.sessionCookie);
    const stored = await ctx.database.db.query.sessions.findMany();
    for (const row of stored) expect(JSON.stringify(data)).not.toContain(row.id);
  });

  it('signs out the other sessions after a password confirmation; this one stays', async () => {
    const { ROOT } = await newMerchant();
    const here = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const other = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const refused = await here.delete('/api/user/other-browser-sessions');
    expect(refused.statusCode).toBe(423);
    expect((await other.get('/api/merchant/user')).statusCode).toBe(200);

    await confirmPassword(here, TEST_PASSWORD);
    const ended = await here.delete('/api/user/other-browser-sessions');
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ data: { ended: 1 } });
    expect((await other.get('/api/merchant/user')).statusCode).toBe(401);
    expect((await here.get('/api/merchant/user')).statusCode).toBe(200);
    expect((await here.get('/api/user/sessions')).json().data).toHaveLength(1);
  });

  it('never lists or ends another user’s sessions', async () => {
    const { ROOT, VIEWER } = await newMerchant(['ROOT', 'VIEWER']);
    const root = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const viewer = await loginAs(ctx.app, VIEWER.email, TEST_PASSWORD);
    expect((await root.get('/api/user/sessions')).json().data).toHaveLength(1);
    await confirmPassword(root, TEST_PASSWORD);
    expect((await root.delete('/api/user/other-browser-sessions')).json()).toEqual({ data: { ended: 0 } });
    expect((await viewer.get('/api/merchant/user')).statusCode).toBe(200);
  });
});

describe('security log', () => {
  it('records logins, failed logins, two-factor, recovery codes and password changes with time and IP', async () => {
    freezeClock();
    const { FINANCE } = await newMerchant(['FINANCE']);
    const failed = new TestClient(ctx.app);
    failed.ip = '192.0.2.44';
    await failed.login(FINANCE.email, 'wrong-password');
    const client = await loginWithAgent(FINANCE.email, CHROME, '192.0.2.45');
    const { secret, recoveryCodes } = await enableTwoFactor(client, TEST_PASSWORD);
    const regenerated = await client.post('/api/user/two-factor-recovery-codes', {
      recovery_code: recoveryCodes[0],
    });
    expect(regenerated.statusCode).toBe(200);
    const challenged = new TestClient(ctx.app);
    await challenged.login(FINANCE.email, TEST_PASSWORD);
    await challenged.post('/api/two-factor-challenge', { recovery_code: 'wrong-code' });
    await client.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'changed-password',
      password_confirmation: 'changed-password',
    });
    const off = await client.delete('/api/user/two-factor-authentication', {
      code: await totpCode(secret, 1),
    });
    expect(off.statusCode).toBe(200);
    expect(recoveryCodes).toHaveLength(8);

    const response = await client.get('/api/merchant/security-events?per_page=100');
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    const types = data.map((e: { type: string }) => e.type);
    expect(types).toEqual([
      'two_factor_disabled',
      'password_changed',
      'two_factor_challenge_failed',
      'recovery_codes_regenerated',
      'two_factor_enabled',
      'recovery_codes_viewed',
      'login',
      'login_failed',
    ]);
    expect(meta).toMatchObject({ page: 1, per_page: 100, total: 8 });
    const login = data.find((e: { type: string }) => e.type === 'login');
    expect(login).toMatchObject({
      ip: '192.0.2.45',
      browser: 'Chrome 126',
      user: { id: FINANCE.id, email: FINANCE.email },
    });
    expect(data.find((e: { type: string }) => e.type === 'login_failed').ip).toBe('192.0.2.44');
    expect(Date.parse(login.created_at)).not.toBeNaN();
  });

  it('shows ROOT the whole merchant, others only themselves, and no one another merchant', async () => {
    const mine = await newMerchant(['ROOT', 'VIEWER']);
    const theirs = await newMerchant();
    const root = await loginAs(ctx.app, mine.ROOT.email, TEST_PASSWORD);
    const viewer = await loginAs(ctx.app, mine.VIEWER.email, TEST_PASSWORD);
    const stranger = await loginAs(ctx.app, theirs.ROOT.email, TEST_PASSWORD);

    const emailsSeenBy = async (client: TestClient) =>
      new Set(
        (await client.get('/api/merchant/security-events'))
          .json()
          .data.map((e: { user: { email: string } }) => e.user.email),
      );
    expect(await emailsSeenBy(root)).toEqual(new Set([mine.ROOT.email, mine.VIEWER.email]));
    expect(await emailsSeenBy(viewer)).toEqual(new Set([mine.VIEWER.email]));
    expect(await emailsSeenBy(stranger)).toEqual(new Set([theirs.ROOT.email]));
  });

  it('pages newest first and filters by type', async () => {
    const { ROOT } = await newMerchant();
    const client = await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    for (let i = 0; i < 4; i++) await loginAs(ctx.app, ROOT.email, TEST_PASSWORD);
    const first = (await client.get('/api/merchant/security-events?per_page=2')).json();
    const second = (await client.get('/api/merchant/security-events?per_page=2&page=2')).json();
    expect(first.meta).toMatchObject({ page: 1, per_page: 2, total: 5 });
    expect(first.data).toHaveLength(2);
    expect(second.data).toHaveLength(2);
    const ids = [...first.data, ...second.data].map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(4);
    const logouts = (await client.get('/api/merchant/security-events?type=logout')).json();
    expect(logouts.meta.total).toBe(0);
    expect((await client.get('/api/merchant/security-events?per_page=101')).statusCode).toBe(422);
    expect((await client.get('/api/merchant/security-events?type=nonsense')).statusCode).toBe(422);
  });
});
