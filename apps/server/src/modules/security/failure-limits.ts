import type { DbOrTx } from '../../db/client.ts';
import type { AppError } from '../../lib/errors.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { hitRateLimit, releaseRateLimit } from '../../db/rate-limits.ts';

/** Wrong passwords or codes a logged-in user may send per minute, per kind of secret. */
export const FAILURES_PER_MINUTE = 5;

/**
 * Wrong authenticator codes an account takes per day, wherever they are typed (the login challenge, the
 * step-up of money actions, binding, the payment password): each is a guess at the same secret.
 */
export const CODE_FAILURES_PER_DAY = 300;

/** A counter of failures: its key, how many it takes, per how many seconds. */
export type FailureLimit = readonly [key: string, limit: number, windowSeconds: number];

export const perMinute = (key: string): FailureLimit => [key, FAILURES_PER_MINUTE, 60];

export const codeFailuresPerDay = (userId: number): FailureLimit => [
  `two-factor-code-failures-day:${userId}`,
  CODE_FAILURES_PER_DAY,
  86400,
];

/** Wrong codes of the user's authenticator outside the login challenge: 5 a minute and the daily ceiling. */
export const codeFailureLimits = (userId: number): FailureLimit[] => [
  perMinute(`two-factor-code:${userId}`),
  codeFailuresPerDay(userId),
];

/**
 * Counts a try against each limit, the longest window first (when the day is spent, the answer's
 * Retry-After says so). A try one of them refuses is given back to the others: a refused try checked
 * nothing, so it does not use up a shorter window too.
 */
export async function hitLimits(db: DbOrTx, limits: readonly FailureLimit[]): Promise<void> {
  const longestFirst = [...limits].sort((a, b) => b[2] - a[2]);
  for (const [i, [key, limit, windowSeconds]] of longestFirst.entries()) {
    const attempt = await hitRateLimit(db, key, limit, windowSeconds);
    if (attempt.allowed) continue;
    for (const [counted] of longestFirst.slice(0, i + 1)) await releaseRateLimit(db, counted);
    throw tooManyRequests(attempt.retryAfterSeconds);
  }
}

/**
 * Runs a secret check that only counts against the user when it fails: past a limit (5 failures in a
 * minute, say) every further try answers 429 until its window ends, so a stolen session cannot guess at
 * leisure. The try is counted before the check (tries sent together cannot all pass a count read before any
 * of them failed) and given back when it was right. The check returns the error to throw on failure, or null.
 */
export async function guardFailures(
  db: DbOrTx,
  limits: readonly FailureLimit[],
  check: () => Promise<AppError | null>,
): Promise<void> {
  await hitLimits(db, limits);
  const failure = await check();
  if (!failure) {
    for (const [key] of limits) await releaseRateLimit(db, key);
    return;
  }
  throw failure;
}
