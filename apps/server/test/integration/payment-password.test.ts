import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { verifyStepUp } from '../../src/modules/security/index.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { enableTwoFactor, freezeClock, releaseClock, totpCode } from '../helpers/two-factor.ts';

let ctx: TestContext;
const PAY = 'pay-secret-1';

type Clock = ReturnType<typeof freezeClock>;

/** A FINANCE user with two-factor on; every code is taken from a later period than the last one used. */
async function financeWithTwoFactor(clock: Clock) {
  const { users: created } = await createMerchant(ctx.database.db, { roles: ['FINANCE', 'VIEWER'] });
  const client = await loginAs(ctx.app, created.FINANCE.email, TEST_PASSWORD);
  const { secret } = await enableTwoFactor(client, TEST_PASSWORD);
  const nextCode = async () => {
    clock.nextStep();
    return totpCode(secret);
  };
  return { client, user: created.FINANCE, viewer: created.VIEWER, secret, nextCode };
}

async function setPaymentPassword(client: TestClient, code: string, paymentPassword = PAY) {
  return client.put('/api/merchant/payment-password', {
    password: TEST_PASSWORD,
    payment_password: paymentPassword,
    payment_password_confirmation: paymentPassword,
    code,
  });
}

const stepUp = (client: TestClient, paymentPassword: string, code: string) =>
  client.post('/api/merchant/step-up/verify', { payment_password: paymentPassword, code });

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());
afterEach(() => releaseClock());

describe('without two-factor', () => {
  it('answers 400 two_factor_required to the payment password and the step-up check', async () => {
    const { users: created } = await createMerchant(ctx.database.db, { roles: ['FINANCE'] });
    const client = await loginAs(ctx.app, created.FINANCE.email, TEST_PASSWORD);
    const expected = { message: 'This feature is not enabled yet', code: 'two_factor_required' };

    const set = await setPaymentPassword(client, '123456');
    expect(set.statusCode).toBe(400);
    expect(set.json()).toMatchObject(expected);
    const check = await stepUp(client, PAY, '123456');
    expect(check.statusCode).toBe(400);
    expect(check.json()).toMatchObject(expected);
    // Even an empty form gets the reason first, so the console can send the user to Security.
    expect((await client.put('/api/merchant/payment-password', {})).json()).toMatchObject(expected);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, created.FINANCE.id));
    expect(row.paymentPasswordHash).toBeNull();
  });
});

describe('PUT /api/merchant/payment-password', () => {
  it('sets it the first time with the login password and a code (argon2id), then changes it with the current one', async () => {
    const clock = freezeClock();
    const { client, user, nextCode } = await financeWithTwoFactor(clock);

    const missing = await client.put('/api/merchant/payment-password', {
      payment_password: PAY,
      payment_password_confirmation: PAY,
      code: await nextCode(),
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ password: ['The password field is required.'] });

    const wrongLogin = await client.put('/api/merchant/payment-password', {
      password: 'not-my-login',
      payment_password: PAY,
      payment_password_confirmation: PAY,
      code: await nextCode(),
    });
    expect(wrongLogin.statusCode).toBe(422);
    expect(wrongLogin.json().errors).toEqual({
      password: ['The provided password does not match your current password.'],
    });

    const wrongCode = await setPaymentPassword(client, '000000');
    expect(wrongCode.statusCode).toBe(422);
    expect(wrongCode.json().errors).toEqual({
      code: ['The provided two factor authentication code was invalid.'],
    });
    expect((await client.get('/api/user/meta')).json().data.payment_password_set).toBe(false);

    const set = await setPaymentPassword(client, await nextCode());
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { payment_password_set: true } });
    expect((await client.get('/api/user/meta')).json().data.payment_password_set).toBe(true);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.paymentPasswordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    // A change needs the current payment password, not the login password.
    const withLogin = await setPaymentPassword(client, await nextCode(), 'another-pay-2');
    expect(withLogin.statusCode).toBe(422);
    expect(withLogin.json().errors).toEqual({
      current_payment_password: ['The current payment password field is required.'],
    });
    const changed = await client.put('/api/merchant/payment-password', {
      current_payment_password: PAY,
      payment_password: 'another-pay-2',
      payment_password_confirmation: 'another-pay-2',
      code: await nextCode(),
    });
    expect(changed.statusCode).toBe(200);
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(422);
    expect((await stepUp(client, 'another-pay-2', await nextCode())).statusCode).toBe(200);

    const events = (await client.get('/api/merchant/security-events'))
      .json()
      .data.map((e: { type: string }) => e.type);
    expect(events).toContain('payment_password_set');
    expect(events).toContain('payment_password_changed');
  });

  it('validates length, confirmation, code format, and refuses the login password as payment password', async () => {
    const clock = freezeClock();
    const { client, nextCode } = await financeWithTwoFactor(clock);
    const short = await client.put('/api/merchant/payment-password', {
      password: TEST_PASSWORD,
      payment_password: '12345',
      payment_password_confirmation: '12345',
      code: '12345',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({
      payment_password: ['The payment password field must be at least 6 characters.'],
      code: ['The code must be 6 digits.'],
    });
    const mismatch = await client.put('/api/merchant/payment-password', {
      password: TEST_PASSWORD,
      payment_password: '123456',
      payment_password_confirmation: '654321',
      code: '123456',
    });
    expect(mismatch.json().errors).toEqual({
      payment_password: ['Confirm password does not match password'],
    });
    const same = await setPaymentPassword(client, await nextCode(), TEST_PASSWORD);
    expect(same.statusCode).toBe(422);
    expect(same.json().errors).toEqual({
      payment_password: ['The payment password must be different from your login password.'],
    });
    expect((await client.get('/api/user/meta')).json().data.payment_password_set).toBe(false);
  });

  it('is refused to a VIEWER (403)', async () => {
    const clock = freezeClock();
    const { viewer } = await financeWithTwoFactor(clock);
    const client = await loginAs(ctx.app, viewer.email, TEST_PASSWORD);
    expect((await setPaymentPassword(client, '123456')).statusCode).toBe(403);
  });
});

describe('the step-up check', () => {
  it('answers 400 payment_password_required before a payment password is set', async () => {
    const clock = freezeClock();
    const { client, nextCode } = await financeWithTwoFactor(clock);
    const response = await stepUp(client, PAY, await nextCode());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'payment_password_required' });
  });

  it('needs both the payment password and a fresh code; a code works once', async () => {
    const clock = freezeClock();
    const { client, nextCode, secret } = await financeWithTwoFactor(clock);
    await setPaymentPassword(client, await nextCode());

    const missing = await client.post('/api/merchant/step-up/verify', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({
      payment_password: ['The payment password field is required.'],
      code: ['The code field is required.'],
    });
    clock.nextStep();
    const code = await totpCode(secret);
    expect((await stepUp(client, PAY, code)).json()).toEqual({ data: { verified: true } });
    const replay = await stepUp(client, PAY, code);
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors).toEqual({
      code: ['The provided two factor authentication code was invalid.'],
    });
  });

  it('locks money-moving actions for 30 minutes after 5 wrong payment passwords in a row; a right one resets the count', async () => {
    const clock = freezeClock();
    const { client, user, nextCode } = await financeWithTwoFactor(clock);
    await setPaymentPassword(client, await nextCode());

    for (let i = 1; i <= 4; i++) {
      const wrong = await stepUp(client, `wrong-${i}`, await nextCode());
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.payment_password[0]).toContain(`${5 - i} attempt`);
    }
    // The right one resets the count: four more wrong ones do not lock.
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(200);
    for (let i = 1; i <= 4; i++)
      expect((await stepUp(client, `again-${i}`, await nextCode())).statusCode).toBe(422);

    const fifth = await stepUp(client, 'again-5', await nextCode());
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'payment_locked' });
    expect(fifth.json().message).toContain('30 more minutes');
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(29 * 60);

    // Locked: the right password and a valid code do not get through, nor can the password be changed.
    const stillLocked = await stepUp(client, PAY, await nextCode());
    expect(stillLocked.statusCode).toBe(423);
    expect(
      (
        await client.put('/api/merchant/payment-password', {
          current_payment_password: PAY,
          payment_password: 'newer-pay-3',
          payment_password_confirmation: 'newer-pay-3',
          code: await nextCode(),
        })
      ).statusCode,
    ).toBe(423);
    expect((await client.get('/api/user/meta')).json().data.payment_locked_until).not.toBeNull();

    clock.advance(20 * 60_000);
    const later = await stepUp(client, PAY, await nextCode());
    expect(later.statusCode).toBe(423);
    expect(later.json().message).toMatch(/ (9|10) more minutes/);

    // Half an hour after the lock, the right password works again and the count starts over.
    clock.advance(11 * 60_000);
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.paymentPasswordFailures).toBe(0);
    const events = (await client.get('/api/merchant/security-events?type=payment_password_locked')).json();
    expect(events.meta.total).toBe(1);
  });

  it('counts wrong payment passwords that arrive at the same time, one by one', async () => {
    const clock = freezeClock();
    const { client, user, nextCode } = await financeWithTwoFactor(clock);
    await setPaymentPassword(client, await nextCode());
    const code = await nextCode();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => stepUp(client, `race-${i}`, code)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([422, 422, 422, 422, 423, 423, 423, 423]);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.paymentLockedUntil).not.toBeNull();
  });

  it('is callable in-process by money-moving modules, with the same answers', async () => {
    const clock = freezeClock();
    const { client, user, nextCode } = await financeWithTwoFactor(clock);
    await setPaymentPassword(client, await nextCode());
    const options = { appKey: ctx.config.appKey };
    await expect(
      verifyStepUp(ctx.database.db, user, { paymentPassword: PAY, code: await nextCode() }, options),
    ).resolves.toBeUndefined();
    await expect(
      verifyStepUp(ctx.database.db, user, { paymentPassword: 'nope-nope', code: await nextCode() }, options),
    ).rejects.toMatchObject({ status: 422, errors: { payment_password: [expect.any(String)] } });
    await expect(
      verifyStepUp(ctx.database.db, user, { paymentPassword: PAY, code: '12' }, options),
    ).rejects.toMatchObject({ status: 422, errors: { code: ['The code must be 6 digits.'] } });
  });
});

describe('a forgotten payment password', () => {
  const reset = (client: TestClient, body: Record<string, unknown>) =>
    client.post('/api/merchant/payment-password/reset', body);

  it('is replaced with the login password and a code, lifts a lock, and is logged', async () => {
    const clock = freezeClock();
    const { client, nextCode } = await financeWithTwoFactor(clock);
    expect((await setPaymentPassword(client, await nextCode())).statusCode).toBe(200);
    // Five wrong payment passwords lock money-moving actions.
    for (let i = 0; i < 5; i++) await stepUp(client, 'not-it-000', await nextCode());
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(423);

    const wrongLogin = await reset(client, {
      password: 'not-the-login',
      payment_password: 'new-pay-22',
      payment_password_confirmation: 'new-pay-22',
      code: await nextCode(),
    });
    expect(wrongLogin.statusCode).toBe(422);
    expect(wrongLogin.json()).toMatchObject({
      code: 'current_password_mismatch',
      errors: { password: [expect.any(String)] },
    });
    const wrongCode = await reset(client, {
      password: TEST_PASSWORD,
      payment_password: 'new-pay-22',
      payment_password_confirmation: 'new-pay-22',
      code: (await nextCode()) === '000000' ? '111111' : '000000',
    });
    expect(wrongCode.statusCode).toBe(422);
    expect(wrongCode.json()).toMatchObject({ code: 'invalid_code' });
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(423);

    const done = await reset(client, {
      password: TEST_PASSWORD,
      payment_password: 'new-pay-22',
      payment_password_confirmation: 'new-pay-22',
      code: await nextCode(),
    });
    expect(done.statusCode).toBe(200);
    expect((await stepUp(client, PAY, await nextCode())).statusCode).toBe(422);
    expect((await stepUp(client, 'new-pay-22', await nextCode())).statusCode).toBe(200);
    const log = (await client.get('/api/merchant/security-events?type=payment_password_reset')).json();
    expect(log.data).toEqual([
      expect.objectContaining({
        type: 'payment_password_reset',
        detail: { was_set: true, was_locked: true },
      }),
    ]);
  });

  it('needs two-factor on, and a VIEWER may not', async () => {
    const { users: created } = await createMerchant(ctx.database.db, { roles: ['FINANCE', 'VIEWER'] });
    const finance = await loginAs(ctx.app, created.FINANCE.email, TEST_PASSWORD);
    const body = {
      password: TEST_PASSWORD,
      payment_password: 'new-pay-22',
      payment_password_confirmation: 'new-pay-22',
      code: '123456',
    };
    expect((await reset(finance, body)).json()).toMatchObject({ code: 'two_factor_required' });
    const viewer = await loginAs(ctx.app, created.VIEWER.email, TEST_PASSWORD);
    expect((await reset(viewer, body)).statusCode).toBe(403);
  });
});
