import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from './client.ts';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

// Windows are measured by the server's clock (as sessions and payment locks are), so a test moves them
// by moving the clock instead of waiting an hour or a day.
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * A fixed-window counter in the database, so every server process shares it.
 * One statement: the window is reset and counted atomically.
 */
export async function hitRateLimit(
  db: DbOrTx,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date = new Date(),
): Promise<RateLimitResult> {
  const [row] = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, ${at(now)} + make_interval(secs => ${windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= ${at(now)} then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= ${at(now)} then excluded.reset_at else rate_limits.reset_at end
    returning count, extract(epoch from (reset_at - ${at(now)}))::float8 as retry_after`,
  );
  const count = Number(row.count);
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil(Number(row.retry_after))),
  };
}

/** How many hits the window holds now, without counting one. */
export async function peekRateLimit(
  db: DbOrTx,
  key: string,
  now: Date = new Date(),
): Promise<{ count: number; retryAfterSeconds: number }> {
  const [row] = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
    select count, extract(epoch from (reset_at - ${at(now)}))::float8 as retry_after
    from rate_limits where key = ${key} and reset_at > ${at(now)}`,
  );
  if (!row) return { count: 0, retryAfterSeconds: 0 };
  return { count: Number(row.count), retryAfterSeconds: Math.max(1, Math.ceil(Number(row.retry_after))) };
}

/** Gives one hit back (a try counted before its check turned out right); never below zero. */
export async function releaseRateLimit(db: DbOrTx, key: string, now: Date = new Date()): Promise<void> {
  await db.execute(
    sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key} and reset_at > ${at(now)}`,
  );
}

export async function clearRateLimit(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Housekeeping: windows that ended more than an hour ago. */
export async function deleteSpentRateLimits(db: DbOrTx, now: Date = new Date()): Promise<void> {
  await db.execute(sql`delete from rate_limits where reset_at < ${at(now)} - interval '1 hour'`);
}
