import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { deleteSpentRateLimits } from '../lib/rate-limiter.ts';
import { sessionsRepository } from '../modules/auth/index.ts';
import { gatewayRepository } from '../modules/gateway/index.ts';

const EVERY_MS = 10 * 60 * 1000;

/** Deletes expired sessions and spent rate-limit windows. Idempotent; any number of processes may run it. */
export async function sweepExpired(db: Db, now: Date = new Date()): Promise<void> {
  await sessionsRepository.deleteExpired(db);
  await deleteSpentRateLimits(db);
  await gatewayRepository.deleteExpired(db, now);
}

export function startHousekeeping(db: Db, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    sweepExpired(db).catch((err: unknown) => log.warn({ err }, 'housekeeping failed'));
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
