import { and, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Cursor } from '../lib/cursor.ts';

/**
 * The rows after a cursor in a list ordered newest first (created_at desc, id desc): read from that
 * position on the list's index instead of skipping rows, so deep pages cost what the first does.
 */
export const afterCursor = (
  createdAt: PgColumn,
  id: PgColumn,
  cursor: Cursor | undefined,
): SQL | undefined =>
  cursor
    ? or(lt(createdAt, cursor.createdAt), and(eq(createdAt, cursor.createdAt), lt(id, cursor.id)))
    : undefined;

/**
 * Newest first, exactly as the lists' indexes are built ((merchant_id[, filter], created_at DESC NULLS LAST,
 * id DESC NULLS LAST)): PostgreSQL then reads a page straight off the index. A plain `desc()` means NULLS
 * FIRST, which that index cannot serve: every matching row would be sorted (list-plans.test.ts).
 */
export const newestFirst = (createdAt: PgColumn, id: PgColumn): SQL[] => [
  sql`${createdAt} desc nulls last`,
  sql`${id} desc nulls last`,
];
