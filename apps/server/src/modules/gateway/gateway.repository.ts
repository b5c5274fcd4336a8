import { lt } from 'drizzle-orm';
import { type DbOrTx, queryText } from '../../db/client.ts';
import { gatewayNonces } from '../../db/schema/index.ts';
import { NONCE_TTL_MS, nonceClaimCtes, nonceClaimParams, type RememberedKey } from './nonce-claim.sql.ts';

/** Every gateway call runs one of these: constant text, so no SQL is built per call (queryText). */
const CLAIM_NONCE = `insert into gateway_nonces (merchant_id, nonce, created_at)
     values ($1, $2, $3::timestamptz)
     on conflict (merchant_id, nonce) do update set created_at = excluded.created_at
     where gateway_nonces.created_at < $4::timestamptz
     returning nonce`;

const CLAIM_NONCE_IF_CURRENT = `with ${nonceClaimCtes(0)}
     select exists (select 1 from k) as current, exists (select 1 from n) as claimed`;

export const gatewayRepository = {
  /** Records a nonce; false when this merchant used it in the last 10 minutes (a replay). */
  claimNonce: async (db: DbOrTx, merchantId: number, nonce: string, at: Date): Promise<boolean> => {
    // An old row (past the window, not swept yet) is taken over; a recent one refuses the call.
    const rows = await queryText<{ nonce: string }>(db, CLAIM_NONCE, [
      merchantId,
      nonce,
      at.toISOString(),
      new Date(at.getTime() - NONCE_TTL_MS).toISOString(),
    ]);
    return rows.length === 1;
  },

  /**
   * One round trip for a call signed with a key this process remembers: claims the nonce only while the
   * key row and its merchant still read exactly as remembered (same secret, number, name, currency,
   * status and whitelist). `current` false means the memory is stale: nothing was written.
   */
  claimNonceIfCurrent: async (
    db: DbOrTx,
    seen: RememberedKey,
    nonce: string,
    at: Date,
  ): Promise<{ current: boolean; claimed: boolean }> => {
    const [row] = await queryText<{ current: boolean; claimed: boolean }>(
      db,
      CLAIM_NONCE_IF_CURRENT,
      nonceClaimParams(seen, nonce, at),
    );
    return { current: row.current === true, claimed: row.claimed === true };
  },

  deleteExpired: async (db: DbOrTx, at: Date) => {
    await db.delete(gatewayNonces).where(lt(gatewayNonces.createdAt, new Date(at.getTime() - NONCE_TTL_MS)));
  },
};
