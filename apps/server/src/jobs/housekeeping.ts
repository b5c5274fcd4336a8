import type { Db } from '../db/client.ts';
import { closeOrderMinutes, foldOrderHourlySlots } from '../modules/lists/index.ts';
import { deleteSpentRateLimits } from '../db/rate-limits.ts';
import { deleteExpiredSessions } from '../modules/auth/index.ts';
import { deleteExpiredNonces } from '../modules/gateway/index.ts';
import { closeFundFlowDays, closeFundFlowMinutes } from '../modules/ledger/index.ts';

const HOUR_MS = 3_600_000;

/**
 * Deletes expired sessions and spent rate-limit windows, folds the order rollup's slots of the hours over
 * for an hour or more, sums the UTC days over by then into the daily rollups and the fund flows and orders
 * of the hours over by then into their minute rows. Idempotent; any number of processes may run it at once.
 * It runs as the `housekeeping` job, from its pg-boss schedule (jobs/workers.ts, every 10 minutes): one
 * job per run, taken by one of the processes that work the queue, not a timer in every process.
 */
export async function sweepExpired(db: Db, now: Date = new Date()): Promise<void> {
  await deleteExpiredSessions(db);
  await deleteSpentRateLimits(db, now);
  await deleteExpiredNonces(db, now);
  const before = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);
  await foldOrderHourlySlots(db, before);
  await closeFundFlowDays(db, before);
  await closeFundFlowMinutes(db, before);
  await closeOrderMinutes(db, before);
}
