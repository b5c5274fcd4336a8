import { ERROR_CODES } from '@paydesk/shared';
import type { SessionCheck } from '../plugins/auth-context.ts';
import { ValidationError } from './errors.ts';

/** A list's position: the last row a client saw, in the list's order (created_at desc, id desc). */
export type Cursor = { createdAt: Date; id: number };

// Opaque to clients: base64url of "<created_at ms>.<id>".
export const encodeCursor = (row: Cursor): string =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

// A cursor of ours points at a row written before now; a later time (beyond year 9999 the database cannot
// even read it) is not one.
const LATEST_CURSOR_MS = Date.UTC(9999, 11, 31);

export function decodeCursor(cursor: string): Cursor {
  const match = /^(\d{1,15})\.(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number(match[1]) > LATEST_CURSOR_MS) {
    throw ValidationError.field('cursor', 'The cursor is not valid.', ERROR_CODES.invalidCursor);
  }
  return { createdAt: new Date(Number(match[1])), id: Number(match[2]) };
}

export type Position = { cursor?: Cursor; offset: number; session?: SessionCheck };

/**
 * One page of a list newest first, by cursor or by page number (DESIGN 5): reads one row more than the
 * page to know whether a next page exists, and answers `meta.next_cursor` for it; the sums and the total
 * cover the whole filter.
 *
 * `whole`, for a search by number (a row or a few): the first page read alone, carrying the session's
 * confirmation, and the totals made of its rows when it holds every match (one statement, not two);
 * `totals` only when it does not.
 */
export async function cursorPage<Row extends Cursor, Item, Totals extends { count: number }, Sums>(
  query: { page: number; per_page: number; cursor?: string },
  read: {
    rows: (limit: number, position: Position) => Promise<Row[]>;
    totals: () => Promise<Totals>;
    whole?: { totalsOf: (rows: NoInfer<Row>[]) => Totals; session?: SessionCheck };
  },
  present: (row: Row) => Item,
  sums: (totals: Totals) => Sums,
) {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const position = { cursor, offset: (query.page - 1) * query.per_page };
  const { whole } = read;
  let rows: Row[];
  let totals: Totals;
  if (whole && !cursor && query.page === 1) {
    rows = await read.rows(query.per_page + 1, { ...position, session: whole.session });
    totals = rows.length <= query.per_page ? whole.totalsOf(rows) : await read.totals();
  } else {
    // Both at once: on a pool they take two connections, so the answer waits for the slower one only.
    [rows, totals] = await Promise.all([read.rows(query.per_page + 1, position), read.totals()]);
  }
  const page = rows.slice(0, query.per_page);
  const last = page.at(-1);
  return {
    data: page.map(present),
    meta: {
      page: query.page,
      per_page: query.per_page,
      total: totals.count,
      sums: sums(totals),
      next_cursor: rows.length > query.per_page && last ? encodeCursor(last) : null,
    },
  };
}

/**
 * cursorPage's `whole` for a list searched by `number` (none: not a search by number): the session's
 * confirmation rides with the page, and `totalsOf` adds up the page's rows as the list's sums do.
 */
export const byNumber = <Row, Totals>(
  number: string | undefined,
  session: SessionCheck | undefined,
  totalsOf: (rows: Row[]) => Totals,
) => (number ? { session, totalsOf } : undefined);

/** The sum of a bigint column over rows (a null adds nothing, as SQL's sum): totals made of a whole page. */
export const sumOf = <R>(rows: R[], pick: (row: R) => bigint | null): bigint =>
  rows.reduce((total, row) => total + (pick(row) ?? 0n), 0n);
