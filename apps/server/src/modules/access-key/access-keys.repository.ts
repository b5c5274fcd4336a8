import { eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import { type DbOrTx, preparedOnce, type Tx } from '../../db/client.ts';
import { accessKeys, merchants } from '../../db/schema/index.ts';

const liveMerchants = alias(merchants, 'live_merchant');

export type AccessKeyRow = typeof accessKeys.$inferSelect;

export const accessKeysRepository = {
  /** The merchant's row of that mode, by its live row (the key of each mode belongs to its row). */
  merchantIdOfMode: async (db: DbOrTx, liveMerchantId: number, mode: Mode): Promise<number> => {
    if (mode === 'live') return liveMerchantId;
    const [row] = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.liveMerchantId, liveMerchantId));
    if (!row) throw new Error(`Merchant ${liveMerchantId} has no test twin`);
    return row.id;
  },

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

  /**
   * The key a signed gateway call names, with its merchant row (live or test twin: the key's mode) and
   * that merchant's live row, whose number, name, status and whitelist count in both modes.
   */
  findByAccessKey: async (db: DbOrTx, accessKey: string) => {
    const [row] = await preparedOnce(db, 'access_key_with_merchant', (on) =>
      on
        .select({ key: accessKeys, merchant: merchants, live: liveMerchants })
        .from(accessKeys)
        .innerJoin(merchants, eq(merchants.id, accessKeys.merchantId))
        .innerJoin(
          liveMerchants,
          eq(liveMerchants.id, sql`coalesce(${merchants.liveMerchantId}, ${merchants.id})`),
        )
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

  /** The whitelist is the company's: written on the live row and its twin alike. */
  setIpWhitelist: async (tx: Tx, liveMerchantId: number, ips: string[]) => {
    await tx
      .update(merchants)
      .set({ ipWhitelist: ips })
      .where(or(eq(merchants.id, liveMerchantId), eq(merchants.liveMerchantId, liveMerchantId)));
  },

  ipWhitelistOf: async (db: DbOrTx, merchantId: number): Promise<string[]> => {
    const [row] = await db
      .select({ ips: merchants.ipWhitelist })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row?.ips ?? [];
  },
};
