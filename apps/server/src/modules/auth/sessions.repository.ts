import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';

export type SessionRow = typeof sessions.$inferSelect;

export const sessionsRepository = {
  findLive: async (db: DbOrTx, id: string): Promise<SessionRow | undefined> => {
    const [row] = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`)));
    return row;
  },
  insert: async (db: DbOrTx, row: typeof sessions.$inferInsert): Promise<SessionRow> => {
    const [created] = await db.insert(sessions).values(row).returning();
    return created;
  },
  touch: async (db: DbOrTx, id: string, expiresAt: Date): Promise<void> => {
    await db
      .update(sessions)
      .set({ lastActiveAt: sql`now()`, expiresAt })
      .where(eq(sessions.id, id));
  },
  update: async (db: DbOrTx, id: string, values: Partial<typeof sessions.$inferInsert>): Promise<void> => {
    await db.update(sessions).set(values).where(eq(sessions.id, id));
  },
  delete: async (db: DbOrTx, id: string): Promise<void> => {
    await db.delete(sessions).where(eq(sessions.id, id));
  },
  listLiveForUser: (db: DbOrTx, userId: number) =>
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(sql`${sessions.lastActiveAt} desc`),
  /**
   * Ends every session of the user except the one kept (password change, "sign out other sessions"),
   * including logins still waiting for the two-factor challenge. Answers how many signed-in ones ended.
   */
  deleteOthersOfUser: async (db: DbOrTx, userId: number, keepId: string): Promise<number> => {
    const rows = await db
      .delete(sessions)
      .where(
        and(or(eq(sessions.userId, userId), eq(sessions.pendingUserId, userId)), ne(sessions.id, keepId)),
      )
      .returning({ userId: sessions.userId });
    return rows.filter((row) => row.userId === userId).length;
  },
  deleteExpired: async (db: DbOrTx): Promise<void> => {
    await db.delete(sessions).where(sql`${sessions.expiresAt} < now()`);
  },
};
