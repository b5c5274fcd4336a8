import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Cursor } from '../../lib/cursor.ts';
import type { SessionCheck } from '../../plugins/auth-context.ts';
import { requestSessionCheck } from '../../plugins/request-context.ts';
import { type BuiltQuery, type DbOrTx, preparedOnce, queryBuilt, sqlOf } from '../../db/client.ts';
import { rowOf } from '../../db/rows.ts';
import { CHECKED_COLUMNS, settleCheck } from './session-check.ts';

/**
 * Newest first, exactly as the lists' indexes are built ((merchant_id[, filter], created_at DESC NULLS LAST,
 * id DESC NULLS LAST)): PostgreSQL then reads a page straight off the index. A plain `desc()` means NULLS
 * FIRST, which that index cannot serve: every matching row would be sorted (list-plans.test.ts).
 */
export const newestFirst = (createdAt: PgColumn, id: PgColumn): SQL[] => [
  sql`${createdAt} desc nulls last`,
  sql`${id} desc nulls last`,
];

/**
 * A page's position: after the cursor when given (keyset), else skipping `offset` rows. `confirmsSession`:
 * carry the request's remembered-session confirmation (requestSessionCheck) in the page's statement, if no
 * one has taken it yet (a search by number, whose page is the whole answer: list-kit.ts).
 */
export type Position = { cursor?: Cursor; offset: number; confirmsSession?: boolean };

/** A list's table as listPage reads it. */
export type ListTable = PgTable & { id: PgColumn; merchantId: PgColumn; createdAt: PgColumn };

/**
 * One page of a merchant's list, newest first: after the cursor when given (keyset), else skipping
 * `offset` rows. `equal` holds the list's own filters (column = value; an empty or absent value is no
 * filter). A prepared statement per combination of the filters given, its values bound per call:
 * PostgreSQL plans it once per connection and Node builds no SQL per request (preparedOnce).
 */
export function listPage<Row>(
  db: DbOrTx,
  table: ListTable,
  filter: {
    merchantId: number;
    equal: Record<string, { column: PgColumn; value: string | undefined }>;
    /** [from, to) on created_at. */
    from?: Date;
    to?: Date;
    /** An export's snapshot: rows up to this id. */
    maxId?: number;
  },
  limit: number,
  position: Position,
): Promise<Row[]> {
  const { cursor } = position;
  const given = Object.entries(filter.equal).filter(([, e]) => Boolean(e.value));
  const shape: Record<string, boolean> = {
    ...Object.fromEntries(Object.keys(filter.equal).map((name) => [name, given.some(([g]) => g === name)])),
    from: filter.from !== undefined,
    to: filter.to !== undefined,
    maxId: filter.maxId !== undefined,
    cursor: cursor !== undefined,
  };
  const key = `${getTableName(table)}_page_${Object.entries(shape)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join('_')}`;
  const p = (name: string) => sql.placeholder(name);
  const select = (on: DbOrTx) =>
    on
      .select()
      .from(table)
      .where(
        and(
          eq(table.merchantId, p('merchantId')),
          ...given.map(([name, e]) => eq(e.column, p(name))),
          shape.from ? sql`${table.createdAt} >= ${p('from')}::timestamptz` : undefined,
          shape.to ? sql`${table.createdAt} < ${p('to')}::timestamptz` : undefined,
          shape.maxId ? sql`${table.id} <= ${p('maxId')}::bigint` : undefined,
          shape.cursor
            ? sql`(${table.createdAt}, ${table.id}) < (${p('cursorAt')}::timestamptz, ${p('cursorId')}::bigint)`
            : undefined,
        ),
      )
      .orderBy(...newestFirst(table.createdAt, table.id))
      .limit(p('limit'))
      .offset(p('offset'));
  const values = {
    merchantId: filter.merchantId,
    ...Object.fromEntries(given.map(([name, e]) => [name, e.value])),
    from: filter.from?.toISOString(),
    to: filter.to?.toISOString(),
    maxId: filter.maxId,
    cursorAt: cursor?.createdAt.toISOString(),
    cursorId: cursor?.id,
    limit,
    offset: cursor ? 0 : position.offset,
  };
  const check = position.confirmsSession ? requestSessionCheck() : undefined;
  const session = check?.take();
  if (session)
    return pageConfirming<Row>(
      db,
      table,
      key,
      select,
      { ...values, session_id: session.id },
      check!,
      session.select,
    );
  return preparedOnce(db, key, (on) => select(on).prepare(key)).execute(values) as Promise<Row[]>;
}

/** listPage's statements that carry a session's confirmation, by shape. */
const confirmingPages = new Map<string, BuiltQuery>();

/**
 * The page and the session's confirmation in one statement (one round trip): the session's row, and the
 * page beside it (none when the session is gone or expired, which the session module answers anyway). The
 * check is settled whatever happens, with what the statement read.
 */
async function pageConfirming<Row>(
  db: DbOrTx,
  table: ListTable,
  key: string,
  select: (on: DbOrTx) => { getSQL(): SQL },
  values: Record<string, unknown>,
  check: SessionCheck,
  confirm: SQL,
): Promise<Row[]> {
  let built = confirmingPages.get(key);
  if (!built) {
    built = sqlOf(
      db,
      sql`select page.*, ${CHECKED_COLUMNS}
            from (${confirm}) as checked left join lateral (${select(db).getSQL()}) as page on true`,
    );
    confirmingPages.set(key, built);
  }
  let rows: Record<string, unknown>[] | undefined;
  try {
    rows = await queryBuilt<Record<string, unknown>>(db, built, values);
  } finally {
    settleCheck(check, rows?.[0]);
  }
  const page = rows
    .filter((row) => row.id !== null)
    .map((row) => rowOf<Row & { createdAt: Date; id: number }>(table, row));
  // One outer row: the page comes in its own order; kept so whatever the plan.
  return page.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
}
