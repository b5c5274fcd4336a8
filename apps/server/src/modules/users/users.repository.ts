import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { merchants, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type MerchantRow = typeof merchants.$inferSelect;

export const usersRepository = {
  findByEmail: async (db: DbOrTx, email: string): Promise<UserRow | undefined> => {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row;
  },
  findById: async (db: DbOrTx, id: number): Promise<UserRow | undefined> => {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },
  /** The user with their merchant, in one round trip. */
  findWithMerchant: async (
    db: DbOrTx,
    id: number,
  ): Promise<{ user: UserRow; merchant: MerchantRow } | undefined> => {
    const [row] = await db
      .select({ user: users, merchant: merchants })
      .from(users)
      .innerJoin(merchants, eq(merchants.id, users.merchantId))
      .where(eq(users.id, id));
    return row;
  },
  insert: async (db: DbOrTx, row: typeof users.$inferInsert): Promise<UserRow> => {
    const [created] = await db.insert(users).values(row).returning();
    return created;
  },
  update: async (db: DbOrTx, id: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow> => {
    const [updated] = await db
      .update(users)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return updated;
  },
};
