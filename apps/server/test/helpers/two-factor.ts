import { generate } from 'otplib';
import { vi } from 'vitest';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import type { TestClient } from './client.ts';

export const PERIOD_MS = 30_000;

/**
 * Freezes Date (only Date: timers, PGlite and sockets keep running) in the middle of a TOTP period,
 * so codes computed by the test and checked by the server fall in the same step.
 */
export function freezeClock(): { now: () => number; advance: (ms: number) => void; nextStep: () => void } {
  const start = Math.floor(Date.now() / PERIOD_MS) * PERIOD_MS + PERIOD_MS / 2;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
  return {
    now: () => Date.now(),
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
    nextStep: () => vi.setSystemTime(Date.now() + PERIOD_MS),
  };
}

export const releaseClock = () => vi.useRealTimers();

/** The authenticator's code, `steps` periods away from now. */
export const totpCode = (secret: string, steps = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

export async function confirmPassword(client: TestClient, password: string): Promise<void> {
  const response = await client.post('/api/user/confirm-password', { password });
  if (response.statusCode !== 201)
    throw new Error(`confirm-password: ${response.statusCode} ${response.body}`);
}

/** Turns two-factor on through the Fortify endpoints; answers the secret and the recovery codes. */
export async function enableTwoFactor(
  client: TestClient,
  password: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await confirmPassword(client, password);
  const enabled = await client.post('/api/user/two-factor-authentication');
  if (enabled.statusCode !== 200) throw new Error(`enable: ${enabled.statusCode} ${enabled.body}`);
  // Read while the setup is pending: once confirmed, neither is shown without a code.
  const { secretKey } = (await client.get('/api/user/two-factor-secret-key')).json();
  const recoveryCodes = (await client.get('/api/user/two-factor-recovery-codes')).json();
  const confirmed = await client.post('/api/user/confirmed-two-factor-authentication', {
    code: await totpCode(secretKey),
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
  return { secret: secretKey, recoveryCodes };
}

/**
 * Two-factor on and `paymentPassword` set for the signed-in user: what the step-up asks for. `nextCode`
 * moves the frozen clock to the next period first, so every code is a fresh one (a code is accepted once).
 */
export async function setUpStepUp(
  client: TestClient,
  clock: Pick<ReturnType<typeof freezeClock>, 'nextStep'>,
  paymentPassword: string,
  password = TEST_PASSWORD,
): Promise<{ secret: string; nextCode: () => Promise<string> }> {
  const { secret } = await enableTwoFactor(client, password);
  const nextCode = async () => {
    clock.nextStep();
    return totpCode(secret);
  };
  const set = await client.put('/api/merchant/payment-password', {
    password,
    payment_password: paymentPassword,
    payment_password_confirmation: paymentPassword,
    code: await nextCode(),
  });
  if (set.statusCode !== 200) throw new Error(`payment password: ${set.statusCode} ${set.body}`);
  return { secret, nextCode };
}
