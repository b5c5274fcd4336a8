import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type DbOrTx, queryRows } from './client.ts';
import { listDaily, listHourly } from './schema/index.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilDay = (at: Date) => new Date(Math.ceil(at.getTime() / DAY_MS) * DAY_MS);
const floorDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/**
 * One part of a sum (hourlyTotals' rollup, days and pending): `select coalesce(sum(column), 0) as name, ...
 * from table where ...`, each column under the name the parts share.
 */
export const sumsOf = (table: PgTable, columns: Record<string, PgColumn>, where: SQL | undefined): SQL =>
  sql`select ${sql.join(
    Object.entries(columns).map(
      ([name, column]) => sql`coalesce(sum(${column}), 0) as ${sql.identifier(name)}`,
    ),
    sql`, `,
  )} from ${table} where ${where}`;

/** How long a process reuses a daily rollup's horizon before reading it again. */
const HORIZON_TTL_MS = 60_000;
const horizons = new WeakMap<DbOrTx, Map<string, { before: Date | null; readAt: number }>>();

/**
 * A daily rollup's horizon (rollup_horizons), remembered for a minute per database handle. It only moves
 * forward, and every hour at or after any horizon is in the hourly rows, so a horizon read a while ago
 * still gives exact sums (only from fewer day rows); a transaction (a handle of its own) reads its own.
 * Bounds written into the statement as values let the planner see how few rows each part reads.
 */
async function horizonOf(db: DbOrTx, name: string): Promise<Date | null> {
  const known = horizons.get(db)?.get(name);
  if (known && Date.now() - known.readAt < HORIZON_TTL_MS) return known.before;
  const [row] = await queryRows<{ before: Date | string }>(
    db,
    sql`select before from rollup_horizons where rollup = ${name}`,
  );
  const before = row ? new Date(row.before) : null;
  let byName = horizons.get(db);
  if (!byName) horizons.set(db, (byName = new Map()));
  byName.set(name, { before, readAt: Date.now() });
  return before;
}

/** Forgets the remembered horizon (the process that moves it, at once; the others within a minute). */
export function horizonMoved(db: DbOrTx, name: string): void {
  horizons.get(db)?.delete(name);
}

/**
 * The sums of a list filter (DESIGN 8: from rollups, never a scan of the matching rows). Whole UTC hours
 * come from an hourly rollup that triggers keep in step with the rows; only the partial hours at the edges
 * of a time range read the rows, and so does a search by number (`rowsOnly`: a row or two). `rows` and
 * `rollup` select the same `columns` over [from, to) (no bound where undefined); answers each column's
 * total as text (they are bigints).
 *
 * With `days`, the whole UTC days of the range before the day rollup's horizon come from its day rows,
 * and `pending` adds what their hours hold that the day rows do not have yet; the hours at the edges of
 * the range and from the horizon on still come from `rollup`.
 */
export async function hourlyTotals<C extends string>(
  db: DbOrTx,
  read: {
    from?: Date;
    to?: Date;
    rowsOnly: boolean;
    rows: (from: Date | undefined, to: Date | undefined) => SQL;
    rollup: (from: Date | undefined, to: Date | undefined) => SQL;
    days?: {
      /** Its name in rollup_horizons; none when the day rows are kept with the hours, every day complete. */
      horizon?: string;
      /** The day rows of the days in [from, to) (no bound where undefined). */
      rollup: (from: Date | undefined, to: Date | undefined) => SQL;
      /** What the hours in [from, to) hold beyond the day rows (changes the job has not moved yet), if any. */
      pending?: (from: Date | undefined, to: Date) => SQL;
    };
    columns: readonly C[];
  },
): Promise<Record<C, string>> {
  const { from, to, days } = read;
  const parts: SQL[] = [];
  const wholeFrom = from ? ceilHour(from) : undefined;
  const wholeTo = to ? floorHour(to) : undefined;
  if (read.rowsOnly || (wholeFrom && wholeTo && wholeFrom >= wholeTo)) {
    parts.push(read.rows(from, to));
  } else {
    // Days [dayFrom, reach): the whole days of the range the day rows cover (null: to the end).
    const dayFrom = wholeFrom ? ceilDay(wholeFrom) : undefined;
    const dayTo = wholeTo ? floorDay(wholeTo) : undefined;
    let reach: Date | null | undefined;
    if (days && !(dayFrom && dayTo && dayFrom >= dayTo)) {
      if (days.horizon === undefined) reach = dayTo ?? null;
      else {
        const horizon = await horizonOf(db, days.horizon);
        const end = horizon && dayTo && dayTo < horizon ? dayTo : horizon;
        reach = end && (!dayFrom || end > dayFrom) ? end : undefined;
      }
    }
    if (days && reach !== undefined) {
      parts.push(days.rollup(dayFrom, reach ?? undefined));
      if (days.pending && reach) parts.push(days.pending(dayFrom, reach));
      if (wholeFrom && dayFrom && dayFrom > wholeFrom) parts.push(read.rollup(wholeFrom, dayFrom));
      if (reach && (!wholeTo || reach < wholeTo)) parts.push(read.rollup(reach, wholeTo));
    } else parts.push(read.rollup(wholeFrom, wholeTo));
    // A part of an hour at an edge: its rows, or the hour's rollup less the rows of the rest of the hour,
    // whichever reads fewer minutes of rows (at most half an hour at each edge).
    const partOfHour = (start: Date, end: Date, hour: Date) => {
      const hourEnd = new Date(hour.getTime() + HOUR_MS);
      const rest = start.getTime() === hour.getTime() ? ([end, hourEnd] as const) : ([hour, start] as const);
      if (rest[1].getTime() - rest[0].getTime() >= end.getTime() - start.getTime()) {
        parts.push(read.rows(start, end));
        return;
      }
      parts.push(
        read.rollup(hour, hourEnd),
        sql`select ${sql.join(
          read.columns.map((c) => sql`-${sql.identifier(c)} as ${sql.identifier(c)}`),
          sql`, `,
        )} from (${read.rows(rest[0], rest[1])}) as rest`,
      );
    };
    if (from && wholeFrom && wholeFrom > from) partOfHour(from, wholeFrom, floorHour(from));
    if (to && wholeTo && wholeTo < to) partOfHour(wholeTo, to, wholeTo);
  }
  const [row] = await queryRows<Record<C, unknown>>(
    db,
    sql`select ${sql.join(
      read.columns.map((c) => sql`coalesce(sum(${sql.identifier(c)}), 0)::text as ${sql.identifier(c)}`),
      sql`, `,
    )} from (${sql.join(parts, sql` union all `)}) as parts`,
  );
  return Object.fromEntries(read.columns.map((c) => [c, String(row?.[c] ?? 0)])) as Record<C, string>;
}

export type ListTotals = { count: number; a: bigint; b: bigint; c: bigint };

/**
 * The sums of a top-up, withdrawal or settlement list filter from `list_daily` and `list_hourly` (see
 * their schema for what a, b and c are in each list). `rows` selects `count(*) as rows` and the three sums
 * `a`, `b`, `c` of the list's rows matching the filter within [from, to).
 */
export async function listTotals(
  db: DbOrTx,
  list: 'recharge' | 'withdrawal' | 'settlement',
  filter: {
    merchantId: number;
    status?: string;
    facet?: string;
    from?: Date;
    to?: Date;
    /** A search by number, or an export's snapshot: the rows are read. */
    rowsOnly: boolean;
  },
  rows: (from: Date | undefined, to: Date | undefined) => SQL,
): Promise<ListTotals> {
  // The same sums of hour rows or of day rows.
  const part =
    (table: typeof listHourly | typeof listDaily, at: PgColumn) =>
    (from: Date | undefined, to: Date | undefined) =>
      sumsOf(
        table,
        { rows: table.rows, a: table.a, b: table.b, c: table.c },
        and(
          eq(table.merchantId, filter.merchantId),
          eq(table.list, list),
          filter.status ? eq(table.status, filter.status) : undefined,
          filter.facet ? eq(table.facet, filter.facet) : undefined,
          from ? gte(at, from) : undefined,
          to ? lt(at, to) : undefined,
        ),
      );
  const sums = await hourlyTotals(db, {
    from: filter.from,
    to: filter.to,
    rowsOnly: filter.rowsOnly,
    rows,
    rollup: part(listHourly, listHourly.hour),
    days: { rollup: part(listDaily, listDaily.day) },
    columns: ['rows', 'a', 'b', 'c'],
  });
  return { count: Number(sums.rows), a: BigInt(sums.a), b: BigInt(sums.b), c: BigInt(sums.c) };
}
