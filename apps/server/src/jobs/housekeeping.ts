import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';

const EVERY_MS = 10 * 60 * 1000;

/** Deletes expired sessions and spent rate-limit windows. Idempotent; any number of processes may run it. */
export async function sweepExpired(db: Db): Promise<void> {
  await db.execute(sql`delete from sessions where expires_at < now()`);
  await db.execute(sql`delete from rate_limits where reset_at < now() - interval '1 hour'`);
}

export function startHousekeeping(db: Db, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    sweepExpired(db).catch((err: unknown) => log.warn({ err }, 'housekeeping failed'));
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
