import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from './client.ts';

/** A table whose rows move from state to state: its id and its status. */
type StatefulTable = PgTable & { id: PgColumn; status: PgColumn };

/**
 * A row's state change, only from the expected state `from`: a racing change finds nothing and changes
 * nothing. The changed row, or undefined.
 */
export async function transitionFrom<T extends StatefulTable>(
  tx: Tx,
  table: T,
  id: number,
  from: string,
  set: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect'] | undefined> {
  const [row] = await tx
    .update(table as StatefulTable)
    .set(set as PgUpdateSetSource<StatefulTable>)
    .where(and(eq(table.id, id), eq(table.status, from)))
    .returning();
  return row as T['$inferSelect'] | undefined;
}
