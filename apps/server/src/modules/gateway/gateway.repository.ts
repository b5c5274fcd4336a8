import { lt, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { gatewayNonces } from '../../db/schema/index.ts';

export const gatewayRepository = {
  /** Records a nonce; false when this merchant used it in the last 10 minutes (a replay). */
  claimNonce: async (db: DbOrTx, merchantId: number, nonce: string, at: Date): Promise<boolean> => {
    // Every gateway call runs it: plain SQL as a named prepared statement. An old row (past the window,
    // not swept yet) is taken over; a recent one refuses the call.
    const rows = await queryRows<{ nonce: string }>(
      db,
      sql`insert into gateway_nonces (merchant_id, nonce, created_at)
          values (${merchantId}, ${nonce}, ${at.toISOString()}::timestamptz)
          on conflict (merchant_id, nonce) do update set created_at = excluded.created_at
          where gateway_nonces.created_at < ${new Date(at.getTime() - NONCE_TTL_MS).toISOString()}::timestamptz
          returning nonce`,
    );
    return rows.length === 1;
  },

  deleteExpired: async (db: DbOrTx, at: Date) => {
    await db.delete(gatewayNonces).where(lt(gatewayNonces.createdAt, new Date(at.getTime() - NONCE_TTL_MS)));
  },
};

export const NONCE_TTL_MS = 10 * 60 * 1000;
