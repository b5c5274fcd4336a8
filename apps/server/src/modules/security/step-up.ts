import { ERROR_CODES, MESSAGES } from '@paydesk/shared';
import {
  PAYMENT_LOCK_FAILURES,
  PAYMENT_LOCK_MINUTES,
  SECURITY_MESSAGES,
  StepUpFieldsSchema,
} from '@paydesk/shared/security/security.schemas.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { AppError, badRequest, tooManyRequests, ValidationError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import { hitRateLimit, peekRateLimit } from '../../db/rate-limits.ts';
import type { ClientInfo } from '../../plugins/auth-context.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { lockUserForUpdate, updateUser, type UserRow } from '../users/index.ts';
import { consumeTotpCode, isTwoFactorEnabled } from './authenticator.ts';
import { codeFailureLimits } from './failure-limits.ts';
import { zodErrors } from './validation.ts';

export type StepUpInput = { paymentPassword: string | undefined; code: string | undefined };
export type StepUpOptions = { appKey: Buffer; client?: ClientInfo | null };

export const twoFactorRequired = () => badRequest(MESSAGES.featureNotEnabled, ERROR_CODES.twoFactorRequired);

export const paymentPasswordRequired = () =>
  badRequest(SECURITY_MESSAGES.paymentPasswordNotSet, ERROR_CODES.paymentPasswordRequired);

/** 423 with the minutes left (in the message) and Retry-After (in seconds). */
export function paymentLocked(until: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    423,
    `Too many wrong payment passwords. Money-moving actions are locked for ${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}.`,
    { code: ERROR_CODES.paymentLocked, headers: { 'retry-after': String(seconds) } },
  );
}

export const isPaymentLocked = (user: Pick<UserRow, 'paymentLockedUntil'>): boolean =>
  user.paymentLockedUntil !== null && user.paymentLockedUntil.getTime() > Date.now();

type LockedUser = UserRow;

/** The user's row, locked until the transaction ends, so checks of one user's payment password queue up. */
export const lockUserRow = (tx: Tx, userId: number): Promise<LockedUser | undefined> =>
  lockUserForUpdate(tx, userId);

/**
 * Checks the payment password of a locked row. A wrong one counts; the fifth in a row locks money-moving
 * actions for 30 minutes (and starts the count again); a right one resets the count.
 * Returns the error to throw once the transaction has committed, or null.
 */
export async function checkPaymentPassword(
  tx: Tx,
  user: LockedUser,
  paymentPassword: string,
  field: string,
  client: ClientInfo | null | undefined,
): Promise<AppError | null> {
  if (!user.paymentPasswordHash) return paymentPasswordRequired();
  if (isPaymentLocked(user)) return paymentLocked(user.paymentLockedUntil!);
  if (await verifyPassword(user.paymentPasswordHash, paymentPassword)) {
    if (user.paymentPasswordFailures > 0 || user.paymentLockedUntil) {
      await updateUser(tx, user.id, { paymentPasswordFailures: 0, paymentLockedUntil: null });
    }
    return null;
  }
  const failures = user.paymentPasswordFailures + 1;
  const event = { merchantId: user.merchantId, userId: user.id };
  if (failures >= PAYMENT_LOCK_FAILURES) {
    const row = await updateUser(tx, user.id, {
      paymentPasswordFailures: 0,
      // The same clock as isPaymentLocked reads.
      paymentLockedUntil: new Date(Date.now() + PAYMENT_LOCK_MINUTES * 60_000),
    });
    await recordSecurityEvent(tx, client ?? null, {
      type: 'payment_password_locked',
      ...event,
      detail: { minutes: PAYMENT_LOCK_MINUTES },
    });
    return paymentLocked(row.paymentLockedUntil!);
  }
  await updateUser(tx, user.id, { paymentPasswordFailures: failures });
  await recordSecurityEvent(tx, client ?? null, {
    type: 'payment_password_failed',
    ...event,
    detail: { failures },
  });
  const left = PAYMENT_LOCK_FAILURES - failures;
  return ValidationError.field(
    field,
    `${SECURITY_MESSAGES.paymentPasswordIncorrect} ${left} ${left === 1 ? 'attempt' : 'attempts'} left before payments are locked for ${PAYMENT_LOCK_MINUTES} minutes.`,
    ERROR_CODES.paymentPasswordIncorrect,
  );
}

/**
 * Checks a 6-digit authenticator code inside the transaction: 5 wrong codes a minute per user, and the
 * account's daily ceiling shared with the login challenge, then 429.
 * Returns the error to throw once the transaction has committed, or null.
 */
export async function checkAuthenticatorCode(
  tx: Tx,
  appKey: Buffer,
  user: LockedUser,
  code: string,
): Promise<AppError | null> {
  const limits = codeFailureLimits(user.id);
  for (const [key, limit] of limits) {
    const before = await peekRateLimit(tx, key);
    if (before.count >= limit) return tooManyRequests(before.retryAfterSeconds);
  }
  if (await consumeTotpCode(tx, appKey, user, code)) return null;
  for (const [key, limit, windowSeconds] of limits) await hitRateLimit(tx, key, limit, windowSeconds);
  return ValidationError.field('code', SECURITY_MESSAGES.invalidCode, ERROR_CODES.invalidCode);
}

/** The step-up fields of a money-moving form's body as sent (the step-up checks their form itself). */
export function stepUpInputOf(body: unknown): StepUpInput {
  const fields = (body ?? {}) as { payment_password?: unknown; code?: unknown };
  return {
    paymentPassword: typeof fields.payment_password === 'string' ? fields.payment_password : undefined,
    code: typeof fields.code === 'string' ? fields.code : undefined,
  };
}

/**
 * The step-up check every money-moving action calls (payouts, withdrawals, the access key secret):
 * the payment password plus a 6-digit authenticator code. Throws:
 * - 400 code two_factor_required when two-factor is not on ("This feature is not enabled yet");
 * - 400 code payment_password_required when no payment password was set;
 * - 423 code payment_locked after 5 wrong payment passwords in a row, for 30 minutes;
 * - 422 errors.payment_password / errors.code for a wrong or malformed one; 429 after 5 wrong codes a minute
 *   or after the account's wrong codes of the day (CODE_FAILURES_PER_DAY, wherever they were typed).
 * A right code is spent: it cannot be used again.
 *
 * Call it with `db` before opening your own transaction: a wrong password must stay counted, and a count
 * written inside your transaction rolls back with it when you rethrow. (Given a transaction it still works,
 * as a savepoint, with that caveat.)
 */
export async function verifyStepUp(
  db: DbOrTx,
  user: Pick<UserRow, 'id'>,
  input: StepUpInput,
  { appKey, client }: StepUpOptions,
): Promise<void> {
  const failure = await db.transaction(async (tx): Promise<AppError | null> => {
    const row = await lockUserRow(tx, user.id);
    if (!row || !isTwoFactorEnabled(row)) return twoFactorRequired();
    if (!row.paymentPasswordHash) return paymentPasswordRequired();
    if (isPaymentLocked(row)) return paymentLocked(row.paymentLockedUntil!);
    const parsed = StepUpFieldsSchema.safeParse({
      payment_password: input.paymentPassword,
      code: input.code,
    });
    if (!parsed.success) return new ValidationError(zodErrors(parsed.error));
    return (
      (await checkPaymentPassword(tx, row, parsed.data.payment_password, 'payment_password', client)) ??
      (await checkAuthenticatorCode(tx, appKey, row, parsed.data.code))
    );
  });
  if (failure) throw failure;
}
