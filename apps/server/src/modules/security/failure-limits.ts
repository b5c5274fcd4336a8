import type { DbOrTx } from '../../db/client.ts';
import type { AppError } from '../../lib/errors.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { hitRateLimit, peekRateLimit } from '../../lib/rate-limiter.ts';

/** Wrong passwords or codes a logged-in user may send per minute, per kind of secret. */
export const FAILURES_PER_MINUTE = 5;

/**
 * Runs a secret check that only counts against the user when it fails: after 5 failures in a minute
 * every further try answers 429 until the window ends, so a stolen session cannot guess at leisure.
 * The check returns the error to throw on failure, or null on success.
 */
export async function guardFailures(
  db: DbOrTx,
  key: string,
  check: () => Promise<AppError | null>,
): Promise<void> {
  const before = await peekRateLimit(db, key);
  if (before.count >= FAILURES_PER_MINUTE) throw tooManyRequests(before.retryAfterSeconds);
  const failure = await check();
  if (!failure) return;
  await hitRateLimit(db, key, FAILURES_PER_MINUTE, 60);
  throw failure;
}
