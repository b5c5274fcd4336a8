import { type Currency, ERROR_CODES, fromMinor } from '@paydesk/shared';
import { AppError } from '../../lib/errors.ts';
import type { ChannelRow } from './channels.repository.ts';

// Channels (DESIGN section 4): opened per merchant by an operator (ops channel:open), each with its fee,
// limits, settlement cycle and, for the built-in sandbox, how it completes orders by itself.

export type { ChannelRow, NewChannel } from './channels.repository.ts';
export {
  addAttempt,
  attemptsOf,
  auditRouting,
  channelsForOrder,
  closeChannel,
  failOverToNext,
  lowestChannelPriority,
  nextChannelFor,
  routeOf,
  routingTableOf,
  type RoutingTable,
  setChannelRoute,
  findChannelById,
  findOpenChannel,
  findOpenOrClosedChannel,
  hasOpenChannelFor,
  isLeftForReview,
  listAllChannels,
  listChannelsOfMerchant,
  openChannel,
  openChannelSecrets,
  recordAttemptOutcome,
  recordAttemptOutcomes,
} from './channels.service.ts';
// Channel adapters (DESIGN 13): services reach a provider only through its adapter, by the registry.
export type {
  AdapterSettings,
  ChannelAdapter,
  ChannelPorts,
  FailOver,
  FollowUp,
  OrderReport,
  PayInstructions,
  ProviderFailure,
  ReceivedPayment,
  BatchLayout,
  ChannelSecrets,
} from './adapters/adapter.ts';
export { COLLECTION_OUTCOMES, PAYOUT_OUTCOMES } from './adapters/outcomes.ts';
export {
  adapterFor,
  allAdapters,
  PROVIDERS,
  providersNotSettled,
  providerServesMode,
  takesNewOrders,
  type Provider,
} from './adapters/registry.ts';
// Routing (DESIGN 14): its rules and the choice itself (pure).
export { healthOf, pickChannel, ROUTING_RULES } from './routing.ts';
// The sandbox's checkout page (modules/sandbox) and its operator's sandbox:complete use its own numbers.
export { newSandboxReference, sandboxPayPath } from './adapters/sandbox/index.ts';
export { createChannelJobs, type ChannelJobs, followUpInsert, sendFollowUp } from './channel-jobs.ts';
// The SQL of the attempt an order's one-statement write inserts with it, not a repository.
export { attemptInsertCte } from './attempts.sql.ts';
// SQL fragments for a gateway order's one-statement write (DESIGN 8), not a repository.
export { rememberedChannel } from './remembered-channel.sql.ts';

/** 422 channel_unavailable: the channel named is not open for the merchant, or none of this kind is. */
export function channelUnavailable(kind: 'collection' | 'payout', code: string | undefined): AppError {
  return new AppError(
    422,
    code
      ? `The ${kind} channel ${code} is not open for this merchant.`
      : `No ${kind} channel is open for this merchant. Please contact customer service.`,
    { code: ERROR_CODES.channelUnavailable },
  );
}

/** A channel as the operator API and the command line show it. */
export function presentChannel(row: ChannelRow, merchantNo: string) {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    merchant: merchantNo,
    code: row.code,
    kind: row.kind,
    provider: row.provider,
    /** The provider's settings (the receiving account, a batch layout); never its secrets. */
    settings: row.settings,
    country: row.country,
    currency,
    /** Percent, exact: 15000 ppm -> "1.5". */
    fee_rate: ppmToPercent(row.feeRatePpm),
    fixed_fee: fromMinor(row.fixedFeeMinor, currency),
    min_amount: fromMinor(row.minAmountMinor, currency),
    max_amount: fromMinor(row.maxAmountMinor, currency),
    settlement_cycle: row.settlementCycle,
    expiry_minutes: row.expiryMinutes,
    sandbox_mode: row.sandboxMode,
    sandbox_success_rate: ppmToPercent(row.sandboxSuccessPpm),
    sandbox_delay_seconds: row.sandboxDelaySeconds,
    status: row.status,
    priority: row.priority,
    weight: row.weight,
    /** Routing's view of its health: cooling (skipped until cooldown_until), probation, healthy. */
    cooldown_until: row.cooldownUntil?.toISOString() ?? null,
    opened_by: row.openedBy,
    closed_by: row.closedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** "1.5" (percent, at most 4 decimals) -> 15000 parts per million. */
export function percentToPpm(percent: string): number {
  const [whole, fraction = ''] = percent.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

export function ppmToPercent(ppm: number): string {
  const whole = Math.trunc(ppm / 10_000);
  const fraction = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
