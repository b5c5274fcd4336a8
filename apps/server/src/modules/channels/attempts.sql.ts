import type { AttemptOrderKind } from '@paydesk/shared/channels/attempts.schemas.ts';
import { COLLECTION_OUTCOMES, PAYOUT_OUTCOMES } from './adapters/outcomes.ts';

// SQL fragments, not a repository: the attempt an order's own statement writes with it (DESIGN 13), so a
// gateway order stays one statement (DESIGN 8). They name channel_attempts' columns, so they live here.

const caseOf = (column: string, map: Record<string, string>) =>
  `case ${column} ${Object.entries(map)
    .map(([status, outcome]) => `when '${status}' then '${outcome}'`)
    .join(' ')} end`;

/** What was asked of the channel: the amount and currency, and for a payout the account's last 4 digits. */
const requestSummary = (kind: AttemptOrderKind, o: string) =>
  kind === 'collection'
    ? `json_build_object('amount_minor', ${o}.amount_minor::text, 'currency', ${o}.currency)`
    : `json_build_object('amount_minor', ${o}.amount_minor::text, 'currency', ${o}.currency,
                         'account', '*' || right(${o}.account_no, 4))`;

/**
 * A CTE (`name as (...)`) inserting one attempt per order row that the CTE `from` returned (`returning *`
 * of the order's insert), on the order's channel, with the outcome of the order's status (an order
 * written as it ended, as the demo seeds them, gets its ended attempt).
 */
export function attemptInsertCte(kind: AttemptOrderKind, from: string, name = 'attempt'): string {
  const outcome = caseOf('o.status', kind === 'collection' ? COLLECTION_OUTCOMES : PAYOUT_OUTCOMES);
  const endedAt =
    kind === 'collection'
      ? 'coalesce(o.paid_at, o.finished_at, o.created_at)'
      : 'coalesce(o.refunded_at, o.finished_at, o.processing_at, o.created_at)';
  return `${name} as (
    insert into channel_attempts (order_kind, order_id, merchant_id, channel_id, provider, channel_ref,
                                  request_summary, outcome, created_at, updated_at)
    select '${kind}', o.id, o.merchant_id, o.channel_id, ch.provider, o.channel_ref,
           ${requestSummary(kind, 'o')}, ${outcome}, o.created_at, ${endedAt}
      from ${from} o join channels ch on ch.id = o.channel_id
  )`;
}

/**
 * A new attempt of an order (by its id, $1) on the channel it has now, pending since $2: a failover's
 * next attempt (DESIGN 14; the order keeps its trade_no).
 */
export const nextAttemptInsert = (kind: AttemptOrderKind): string => {
  const table = kind === 'collection' ? 'collections' : 'payouts';
  return `insert into channel_attempts (order_kind, order_id, merchant_id, channel_id, provider, channel_ref,
                                 request_summary, outcome, created_at, updated_at)
    select '${kind}', o.id, o.merchant_id, o.channel_id, ch.provider, null,
           ${requestSummary(kind, 'o')}, 'pending', $2::timestamptz, $2::timestamptz
      from ${table} o join channels ch on ch.id = o.channel_id
     where o.id = $1`;
};
