import { eq, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, type Tx } from '../../db/client.ts';
import { accessKeys, merchants } from '../../db/schema/index.ts';

export type AccessKeyRow = typeof accessKeys.$inferSelect;

export const accessKeysRepository = {
  /** The merchant's key without its secret, or undefined before the first one is issued. */
  findPublic: async (db: DbOrTx, merchantId: number) => {
    const [row] = await db
      .select({
        accessKey: accessKeys.accessKey,
        notifyUrl: accessKeys.notifyUrl,
        createdAt: accessKeys.createdAt,
        rotatedAt: accessKeys.rotatedAt,
      })
      .from(accessKeys)
      .where(eq(accessKeys.merchantId, merchantId));
    return row;
  },

  find: async (db: DbOrTx, merchantId: number): Promise<AccessKeyRow | undefined> => {
    const [row] = await db.select().from(accessKeys).where(eq(accessKeys.merchantId, merchantId));
    return row;
  },

  /** The key a signed gateway call names, with its merchant (one round trip per call). */
  findByAccessKey: async (db: DbOrTx, accessKey: string) => {
    const [row] = await preparedOnce(db, 'access_key_with_merchant', (on) =>
      on
        .select({ key: accessKeys, merchant: merchants })
        .from(accessKeys)
        .innerJoin(merchants, eq(merchants.id, accessKeys.merchantId))
        .where(eq(accessKeys.accessKey, sql.placeholder('accessKey')))
        .prepare('access_key_with_merchant'),
    ).execute({ accessKey });
    return row;
  },

  /** Issues the first key or replaces it: the old secret stops working when this commits. */
  upsert: async (
    tx: Tx,
    merchantId: number,
    values: { accessKey: string; secretEncrypted: string; webhookSecretEncrypted: string },
  ): Promise<AccessKeyRow> => {
    const [row] = await tx
      .insert(accessKeys)
      .values({ merchantId, ...values })
      .onConflictDoUpdate({ target: accessKeys.merchantId, set: { ...values, rotatedAt: new Date() } })
      .returning();
    return row;
  },

  setWebhookSecret: async (tx: Tx, merchantId: number, webhookSecretEncrypted: string) => {
    await tx.update(accessKeys).set({ webhookSecretEncrypted }).where(eq(accessKeys.merchantId, merchantId));
  },

  setNotifyUrl: async (tx: Tx, merchantId: number, notifyUrl: string | null) => {
    const [row] = await tx
      .update(accessKeys)
      .set({ notifyUrl })
      .where(eq(accessKeys.merchantId, merchantId))
      .returning();
    return row;
  },

  setIpWhitelist: async (tx: Tx, merchantId: number, ips: string[]) => {
    await tx.update(merchants).set({ ipWhitelist: ips }).where(eq(merchants.id, merchantId));
  },

  ipWhitelistOf: async (db: DbOrTx, merchantId: number): Promise<string[]> => {
    const [row] = await db
      .select({ ips: merchants.ipWhitelist })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row?.ips ?? [];
  },
};
