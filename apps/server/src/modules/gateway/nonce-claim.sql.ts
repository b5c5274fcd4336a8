import type { PgTable } from 'drizzle-orm/pg-core';
import { numberedColumns, rowOf } from '../../db/rows.ts';

// SQL fragments, not a repository: a gateway call's nonce claim, made only while the signing key still
// reads as the process remembers it, as CTEs of another module's one-statement write (a gateway
// collection or payout: one round trip, one commit, DESIGN 8). They name gateway_nonces, access_keys and
// merchants, so they live with the module that owns the nonces.

/**
 * The key row `k` and its merchant's live row `m` (whose company fields count in both modes, DESIGN 12)
 * still read as remembered; the values are p(1)..p(8).
 */
const keyReadsAsRemembered = (p: (i: number) => string) => `k.access_key = ${p(1)}
          and k.merchant_id = ${p(2)}
          and k.secret_encrypted = ${p(3)}
          and m.no = ${p(4)}
          and m.name = ${p(5)}
          and m.currency = ${p(6)}
          and m.status = ${p(7)}
          and array_to_string(m.ip_whitelist, ' ') = ${p(8)}`;

/**
 * `k` (the key row and its merchant still read as remembered) and `n` (the nonce claimed while k holds),
 * as CTEs whose 11 parameters are numbered from `from` + 1 (see nonceClaimParams).
 */
export function nonceClaimCtes(from: number): string {
  const p = (i: number) => `$${from + i}`;
  return `k as (
       select 1
         from access_keys k
         join merchants t on t.id = k.merchant_id
         join merchants m on m.id = coalesce(t.live_merchant_id, t.id)
        where ${keyReadsAsRemembered(p)}
     ), n as (
       insert into gateway_nonces (merchant_id, nonce, created_at)
       select ${p(2)}, ${p(9)}, ${p(10)}::timestamptz
        where exists (select 1 from k)
       on conflict (merchant_id, nonce) do update set created_at = excluded.created_at
       where gateway_nonces.created_at < ${p(11)}::timestamptz
       returning nonce
     )`;
}

/**
 * The claims of many calls in one statement (a batch of gateway writes): the rows of `input` carry
 * `i` and nonceClaimParams' values as columns k1..k11 (NONCE_CLAIM_COLUMNS); `k` answers the `i` of
 * each call whose key still reads as remembered, `n` the (merchant_id, nonce) claimed for them. Two
 * calls of one batch with the same nonce make the statement fail (the batch then runs call by call).
 */
export function nonceClaimBatchCtes(input: string): string {
  const p = (i: number) => `r.k${i}`;
  return `k as (
       select r.i
         from ${input} r
         join access_keys k on k.access_key = r.k1
         join merchants t on t.id = k.merchant_id
         join merchants m on m.id = coalesce(t.live_merchant_id, t.id)
        where ${keyReadsAsRemembered(p)}
     ), n as (
       insert into gateway_nonces (merchant_id, nonce, created_at)
       select r.k2, r.k9, r.k10 from ${input} r where r.i in (select i from k)
       on conflict (merchant_id, nonce) do update set created_at = excluded.created_at
       where gateway_nonces.created_at < excluded.created_at - interval '${NONCE_TTL_MS} milliseconds'
       returning merchant_id, nonce
     )`;
}

/** nonceClaimParams as the columns of a batch's input rows (nonceClaimBatchCtes). */
export const NONCE_CLAIM_COLUMNS =
  'k1 text, k2 bigint, k3 text, k4 text, k5 text, k6 text, k7 text, k8 text, k9 text, k10 timestamptz, k11 timestamptz';

/** True for the input row `r` of a batch whose call's nonce `n` claimed (nonceClaimBatchCtes). */
export const nonceClaimedBy = (r: string) =>
  `exists (select 1 from n where n.merchant_id = ${r}.k2 and n.nonce = ${r}.k9)`;

/** One call's statement's answer columns: "current" (the key read as remembered) and "claimed". */
export const NONCE_CLAIM_ANSWERS =
  'exists (select 1 from k) as "current", exists (select 1 from n) as "claimed"';

/** A batch statement's answer columns for its input row `r`: "current" and "claimed", as one call's. */
export const nonceClaimBatchAnswers = (r: string) =>
  `${r}.i in (select i from k) as "current", ${nonceClaimedBy(r)} as "claimed"`;

/**
 * A claiming statement's answer row as its caller reads it (one call's or a batch's): "current",
 * "claimed", and the row of `table` it wrote, undefined when none (its columns null).
 */
export const nonceClaimAnswer = <Row>(table: PgTable, saved: Record<string, unknown>) => ({
  current: saved.current === true,
  claimed: saved.claimed === true,
  row: saved.id === null || saved.id === undefined ? undefined : rowOf<Row>(table, saved),
});

/** A call's claim as the columns of its batch input row (NONCE_CLAIM_COLUMNS). */
export const nonceClaimRow = (claim: NonceClaimSql) => numberedColumns('k', claim.params);

export const nonceClaimParams = (seen: RememberedKey, nonce: string, at: Date): unknown[] => [
  seen.accessKey,
  seen.merchantId,
  seen.secretEncrypted,
  seen.no,
  seen.name,
  seen.currency,
  seen.status,
  seen.ipWhitelist.join(' '),
  nonce,
  at.toISOString(),
  new Date(at.getTime() - NONCE_TTL_MS).toISOString(),
];

/**
 * A nonce's claim for another module's statement to make with its own write (one round trip, one
 * commit): `ctes(from)` adds the CTEs k and n with their parameters numbered from `from` + 1; the write
 * must happen only `where exists (select 1 from n)`, and the statement should answer its `answers`
 * (NONCE_CLAIM_ANSWERS), read back by nonceClaimAnswer.
 */
export type NonceClaimSql = { ctes: (from: number) => string; params: unknown[]; key: string };

export const nonceClaimSql = (seen: RememberedKey, nonce: string, at: Date): NonceClaimSql => ({
  ctes: nonceClaimCtes,
  params: nonceClaimParams(seen, nonce, at),
  // What two claims of one batch must not share (nonceClaimBatchCtes).
  key: `nonce:${seen.merchantId}:${nonce}`,
});

/** What a gateway process remembers of an access key and its merchant between calls. */
export type RememberedKey = {
  accessKey: string;
  /** The key's merchant row: its mode's (a row's mode never changes, so it needs no confirming). */
  merchantId: number;
  livemode: boolean;
  secretEncrypted: string;
  no: string;
  name: string;
  currency: string;
  status: string;
  ipWhitelist: string[];
};

export const NONCE_TTL_MS = 10 * 60 * 1000;

/**
 * The nonce claim's SQL in one name, for the repositories whose one statement claims it with the order
 * (nonceClaimSql makes one claim's CTEs and parameters): a batch's claims, their input rows and answers.
 */
export const nonceClaim = {
  claimedBy: nonceClaimedBy,
  columns: NONCE_CLAIM_COLUMNS,
  row: nonceClaimRow,
  batchCtes: nonceClaimBatchCtes,
  batchAnswers: nonceClaimBatchAnswers,
  answers: NONCE_CLAIM_ANSWERS,
  answerOf: nonceClaimAnswer,
};
