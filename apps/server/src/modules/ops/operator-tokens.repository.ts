import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { operatorTokens } from '../../db/schema/index.ts';

export type OperatorTokenRow = typeof operatorTokens.$inferSelect;

export const operatorTokensRepository = {
  /** The live token with this hash (not revoked, not expired at `now`), marked as used then; else undefined. */
  useLive: async (db: DbOrTx, tokenHash: string, now: Date): Promise<OperatorTokenRow | undefined> => {
    const [token] = await db
      .update(operatorTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(operatorTokens.tokenHash, tokenHash),
          isNull(operatorTokens.revokedAt),
          or(isNull(operatorTokens.expiresAt), gt(operatorTokens.expiresAt, now)),
        ),
      )
      .returning();
    return token;
  },
  findByHash: async (db: DbOrTx, tokenHash: string): Promise<OperatorTokenRow | undefined> => {
    const [row] = await db.select().from(operatorTokens).where(eq(operatorTokens.tokenHash, tokenHash));
    return row;
  },
  /** Inserts the token unless its hash is already there (the local token at every start). */
  insertIfAbsent: async (db: DbOrTx, values: typeof operatorTokens.$inferInsert): Promise<void> => {
    await db.insert(operatorTokens).values(values).onConflictDoNothing({ target: operatorTokens.tokenHash });
  },
  insert: async (db: DbOrTx, values: typeof operatorTokens.$inferInsert): Promise<void> => {
    await db.insert(operatorTokens).values(values);
  },
  insertReturning: async (db: DbOrTx, values: typeof operatorTokens.$inferInsert) => {
    const [row] = await db.insert(operatorTokens).values(values).returning();
    return row;
  },
  list: (db: DbOrTx) => db.select().from(operatorTokens).orderBy(asc(operatorTokens.id)),
  findById: async (db: DbOrTx, id: number): Promise<OperatorTokenRow | undefined> => {
    const [row] = await db.select().from(operatorTokens).where(eq(operatorTokens.id, id));
    return row;
  },
  /** live -> revoked, once; undefined when it was not live. */
  revoke: async (db: DbOrTx, id: number, now: Date): Promise<OperatorTokenRow | undefined> => {
    const [row] = await db
      .update(operatorTokens)
      .set({ revokedAt: now })
      .where(and(eq(operatorTokens.id, id), isNull(operatorTokens.revokedAt)))
      .returning();
    return row;
  },
};
