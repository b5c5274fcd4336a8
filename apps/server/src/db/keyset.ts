import { and, eq, lt, or, type SQL } from 'drizzle-orm';
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
