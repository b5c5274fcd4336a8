// SQL fragments, not a repository: what a refund takes from its order (collections.refunded_minor), as a
// CTE of the refund's one-statement write (a gateway refund: one round trip, one commit, DESIGN 8). It
// names the collections table, so it lives with its module.

/** How many parameters collectionRefundClaimCte takes: the order's id, its merchant's and the amount. */
export const COLLECTION_REFUND_CLAIM_PARAMS = 3;

/**
 * The CTE `name`: claimCollectionRefund in the caller's statement. Only when the CTE `gate` has a row, the
 * order (id $from+1, merchant $from+2) takes the amount ($from+3) into its refunded_minor, and only while
 * it is paid and that much is left of it; it answers the order's id, or no row. Racing refunds of one
 * order queue on its row here, and their sum never passes its amount.
 */
export function collectionRefundClaimCte(name: string, gate: string, from: number): string {
  const p = (i: number) => `$${from + i}`;
  return `${name} as (
       update collections set refunded_minor = refunded_minor + ${p(3)}::bigint
        where id = ${p(1)}::bigint and merchant_id = ${p(2)}::bigint and status = 'paid'
          and refunded_minor + ${p(3)}::bigint <= amount_minor
          and exists (select 1 from ${gate})
       returning id
     )`;
}

/** collectionRefundClaimCte's parameters. */
export const collectionRefundClaimParams = (
  collectionId: number,
  merchantId: number,
  amountMinor: bigint,
) => [collectionId, merchantId, String(amountMinor)];

/**
 * collectionRefundClaimCte for a batch: the CTE `name` takes, for each row of the CTE `gate` (each with
 * `collection_id`, `merchant_id` and `amount_minor`, one row per order: the caller's batch never holds two
 * refunds of one order), the amount into its order's refunded_minor on the same conditions, and answers
 * the gate's rows whose order gave it (`returning g.*`).
 */
export function collectionRefundClaimManyCte(name: string, gate: string): string {
  return `${name} as (
       update collections o set refunded_minor = o.refunded_minor + g.amount_minor
         from ${gate} g
        where o.id = g.collection_id and o.merchant_id = g.merchant_id and o.status = 'paid'
          and o.refunded_minor + g.amount_minor <= o.amount_minor
       returning g.*
     )`;
}

/**
 * The refund's claim on its order in one name, for the refunds repository's one statement (as the
 * gateway's nonceClaim): one call's CTE, its parameters and their count, and a batch's CTE.
 */
export const collectionRefundClaim = {
  cte: collectionRefundClaimCte,
  params: collectionRefundClaimParams,
  paramCount: COLLECTION_REFUND_CLAIM_PARAMS,
  batchCte: collectionRefundClaimManyCte,
};
