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
    const [row] = await queryRows<{ current: boolean; claimed: boolean }>(
      db,
      sql`with k as (
            select 1
              from access_keys k
              join merchants m on m.id = k.merchant_id
             where k.access_key = ${seen.accessKey}
               and k.merchant_id = ${seen.merchantId}
               and k.secret_encrypted = ${seen.secretEncrypted}
               and m.no = ${seen.no}
               and m.name = ${seen.name}
               and m.currency = ${seen.currency}
               and m.status = ${seen.status}
               and array_to_string(m.ip_whitelist, ' ') = ${seen.ipWhitelist.join(' ')}
          ), n as (
            insert into gateway_nonces (merchant_id, nonce, created_at)
            select ${seen.merchantId}, ${nonce}, ${at.toISOString()}::timestamptz
             where exists (select 1 from k)
            on conflict (merchant_id, nonce) do update set created_at = excluded.created_at
            where gateway_nonces.created_at < ${new Date(at.getTime() - NONCE_TTL_MS).toISOString()}::timestamptz
            returning nonce
          )
          select exists (select 1 from k) as current, exists (select 1 from n) as claimed`,
    );
    return { current: row.current === true, claimed: row.claimed === true };
  },

  deleteExpired: async (db: DbOrTx, at: Date) => {
    await db.delete(gatewayNonces).where(lt(gatewayNonces.createdAt, new Date(at.getTime() - NONCE_TTL_MS)));
  },
};

/** What a gateway process remembers of an access key and its merchant between calls. */
export type RememberedKey = {
  accessKey: string;
  merchantId: number;
  secretEncrypted: string;
  no: string;
  name: string;
  currency: string;
  status: string;
  ipWhitelist: string[];
};

export const NONCE_TTL_MS = 10 * 60 * 1000;
