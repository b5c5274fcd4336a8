import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, users } from '../../db/schema/index.ts';
import type { MerchantRow, UserRow } from '../../plugins/auth-context.ts';

export type { MerchantRow, UserRow };

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
  /** The user's row, locked until the transaction ends, so checks of one user's secrets queue up. */
  lockForUpdate: async (tx: Tx, id: number): Promise<UserRow | undefined> => {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  },
  /**
   * Spends an authenticator time step: only forward, so the same code (or an older one) is refused
   * afterwards, even by a request racing this one. True when this call spent it.
   */
  advanceTotpStep: async (db: DbOrTx, id: number, step: number): Promise<boolean> => {
    const advanced = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(
        sql`${users.id} = ${id} and (${users.twoFactorLastStep} is null or ${users.twoFactorLastStep} < ${step})`,
      )
      .returning({ id: users.id });
    return advanced.length === 1;
  },
  /** A merchant's users, oldest first (Settings > Team). */
  listOfMerchant: (db: DbOrTx, merchantId: number): Promise<UserRow[]> =>
    db.select().from(users).where(eq(users.merchantId, merchantId)).orderBy(asc(users.id)),
  /**
   * Every user of the merchant, locked until the transaction ends (in id order, so two such locks queue
   * rather than deadlock): team changes that count the active ROOT users see one another's result.
   */
  lockAllOfMerchant: (tx: Tx, merchantId: number): Promise<UserRow[]> =>
    tx.select().from(users).where(eq(users.merchantId, merchantId)).orderBy(asc(users.id)).for('update'),
  findInMerchant: async (db: DbOrTx, merchantId: number, id: number): Promise<UserRow | undefined> => {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.merchantId, merchantId), eq(users.id, id)));
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
  /** Only the locale: a language switch is not a change of the account (updated_at stays). */
  setLocale: async (db: DbOrTx, id: number, locale: string): Promise<void> => {
    await db.update(users).set({ locale }).where(eq(users.id, id));
  },
};
