import type { DbOrTx } from '../../db/client.ts';
import type { AppError } from '../../lib/errors.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { hitRateLimit, releaseRateLimit } from '../../lib/rate-limiter.ts';

/** Wrong passwords or codes a logged-in user may send per minute, per kind of secret. */
export const FAILURES_PER_MINUTE = 5;

/**
 * Runs a secret check that only counts against the user when it fails: after 5 failures in a minute
 * every further try answers 429 until the window ends, so a stolen session cannot guess at leisure.
 * The try is counted before the check (tries sent together cannot all pass a count read before any of them
 * failed) and given back when it was right. The check returns the error to throw on failure, or null.
 */
export async function guardFailures(
  db: DbOrTx,
  key: string,
  check: () => Promise<AppError | null>,
): Promise<void> {
  const attempt = await hitRateLimit(db, key, FAILURES_PER_MINUTE, 60);
  if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
  const failure = await check();
  if (!failure) return releaseRateLimit(db, key);
  throw failure;
}
