import { numberedColumns } from '../../db/rows.ts';
import type { ChannelRow } from './channels.repository.ts';

// SQL fragments, not a repository: the conditions under which a channel still reads as a process
// remembers it, for another module's one-statement write (a gateway collection or payout: one round
// trip, one commit, DESIGN 8). They name the channels table's columns, so they live with its module.

/** How many parameters rememberedChannelWhere takes (rememberedChannelParams). */
export const REMEMBERED_CHANNEL_PARAMS = 13;

/**
 * SQL conditions, true while the channel `c` still reads exactly as a process remembers it (open, the
 * same terms, not changed since: every change sets updated_at) and, with `routed`, while none of the
 * merchant's channels of its kind changed since the process read its routing table (DESIGN 14: the
 * channel was chosen from that table in memory; the remembered updated_at is then the table's version,
 * the latest updated_at of its channels, open or closed). Its parameters are numbered from `from` + 1,
 * in the order of rememberedChannelParams; or, for a batch, `from` names each one (the columns of an
 * input row, typed as REMEMBERED_CHANNEL_COLUMNS) and `routed` is an SQL condition. For one-statement
 * writes on a channel read earlier (a gateway order).
 */
export function rememberedChannelWhere(
  kind: 'collection' | 'payout',
  from: number | ((i: number) => string),
  routed: boolean | string,
): string {
  const p = typeof from === 'number' ? (i: number) => `$${from + i}` : from;
  const sameChannel = `c.updated_at > ${p(12)}::timestamptz - interval '1 millisecond'
      and c.updated_at < ${p(12)}::timestamptz + interval '1 millisecond'`;
  // No channel of the kind (c among them) was opened, closed or changed after the table was read.
  const sameTable = `not exists (select 1 from channels o where o.merchant_id = c.merchant_id
               and o.kind = '${kind}' and o.updated_at >= ${p(12)}::timestamptz + interval '1 millisecond')`;
  return `c.id = ${p(1)} and c.merchant_id = ${p(2)} and c.kind = '${kind}'
      and c.status = 'open' and c.code = ${p(3)} and c.provider = ${p(4)}
      and c.sandbox_mode = ${p(5)} and c.currency = ${p(6)}
      and c.fee_rate_ppm = ${p(7)} and c.fixed_fee_minor = ${p(8)}::bigint
      and c.min_amount_minor = ${p(9)}::bigint and c.max_amount_minor = ${p(10)}::bigint
      and c.expiry_minutes = ${p(11)} and c.country = ${p(13)}
      and ${
        typeof routed === 'string'
          ? `((${routed}) and ${sameTable} or not (${routed}) and ${sameChannel})`
          : routed
            ? sameTable
            : sameChannel
      }`;
}

/** rememberedChannelParams as the columns of a batch's input rows: c1..c13. */
export const REMEMBERED_CHANNEL_COLUMNS =
  'c1 bigint, c2 bigint, c3 text, c4 text, c5 text, c6 text, c7 integer, c8 bigint, c9 bigint, c10 bigint, c11 integer, c12 timestamptz, c13 text';

/** rememberedChannelWhere on a batch's input row `r` (REMEMBERED_CHANNEL_COLUMNS); `firstOpen` in SQL. */
export const rememberedChannelBatchWhere = (kind: 'collection' | 'payout', r: string, routed: string) =>
  rememberedChannelWhere(kind, (i) => `${r}.c${i}`, routed);

/** The channel as remembered, as the columns of a batch's input row (REMEMBERED_CHANNEL_COLUMNS). */
export const rememberedChannelRow = (seen: ChannelRow) => numberedColumns('c', rememberedChannelParams(seen));

/**
 * The channel as remembered, as rememberedChannelWhere's parameters. Its updated_at is compared within
 * a millisecond: PostgreSQL keeps microseconds, a JavaScript Date milliseconds. A channel chosen from a
 * routing table carries the table's version as its updated_at (routedChannel).
 */
export const rememberedChannelParams = (seen: ChannelRow): unknown[] => [
  seen.id,
  seen.merchantId,
  seen.code,
  seen.provider,
  seen.sandboxMode,
  seen.currency,
  seen.feeRatePpm,
  String(seen.fixedFeeMinor),
  String(seen.minAmountMinor),
  String(seen.maxAmountMinor),
  seen.expiryMinutes,
  seen.updatedAt.toISOString(),
  seen.country,
];

/**
 * The channel as remembered, in one name for the repositories whose one statement writes a gateway order
 * on it: its parameters' count and values, its check (one order, or a batch's input rows) and the
 * columns of a batch's input rows.
 */
export const rememberedChannel = {
  paramCount: REMEMBERED_CHANNEL_PARAMS,
  params: rememberedChannelParams,
  where: rememberedChannelWhere,
  columns: REMEMBERED_CHANNEL_COLUMNS,
  row: rememberedChannelRow,
  batchWhere: rememberedChannelBatchWhere,
};
