import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { gatewayNonces } from '../../db/schema/index.ts';

export const gatewayRepository = {
  /** Records a nonce; false when this merchant used it in the last 10 minutes (a replay). */
  claimNonce: async (db: DbOrTx, merchantId: number, nonce: string, at: Date): Promise<boolean> => {
    const rows = await db
      .insert(gatewayNonces)
      .values({ merchantId, nonce, createdAt: at })
      .onConflictDoUpdate({
        target: [gatewayNonces.merchantId, gatewayNonces.nonce],
        set: { createdAt: at },
        // An old row (past the window, not swept yet) is taken over; a recent one refuses the call.
        setWhere: sql`${gatewayNonces.createdAt} < ${new Date(at.getTime() - NONCE_TTL_MS)}`,
      })
      .returning({ nonce: gatewayNonces.nonce });
    return rows.length === 1;
  },

  deleteExpired: async (db: DbOrTx, at: Date) => {
    await db.delete(gatewayNonces).where(lt(gatewayNonces.createdAt, new Date(at.getTime() - NONCE_TTL_MS)));
  },
};

export const NONCE_TTL_MS = 10 * 60 * 1000;
