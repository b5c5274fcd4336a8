import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { accessKeys } from '../../db/schema/index.ts';

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
};
