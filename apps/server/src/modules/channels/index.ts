import { randomInt } from 'node:crypto';
import { type Currency, ERROR_CODES, fromMinor } from '@paydesk/shared';
import { AppError } from '../../lib/errors.ts';
import type { ChannelRow } from './channels.repository.ts';

// Channels (DESIGN section 4): opened per merchant by an operator (ops channel:open), each with its fee,
// limits, settlement cycle and, for the built-in sandbox, how it completes orders by itself.

export type { ChannelRow, NewChannel } from './channels.repository.ts';
export {
  closeChannel,
  findChannelById,
  findOpenChannel,
  hasOpenChannelFor,
  listAllChannels,
  listChannelsOfMerchant,
  openChannel,
} from './channels.service.ts';
export { providerServesMode } from './provider-modes.ts';
// SQL fragments for a gateway order's one-statement write (DESIGN 8), not a repository.
export {
  REMEMBERED_CHANNEL_COLUMNS,
  REMEMBERED_CHANNEL_PARAMS,
  rememberedChannelBatchWhere,
  rememberedChannelParams,
  rememberedChannelRow,
  rememberedChannelWhere,
} from './remembered-channel.sql.ts';

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

/**
 * Whether an open channel may take new orders: the sandbox provider's only where the sandbox runs
 * (config.sandboxEnabled). In production without --demo nothing would ever finish a sandbox order, and a
 * sandbox payout would hold the merchant's funds for good, so it is refused as if the channel were closed.
 */
/**
 * The sandbox channel's own number for an order it took or reported, as a bank's reference would be (the
 * order's channel_ref, the console's "associated order number"): "SBX" and 16 random digits.
 */
export const newSandboxReference = (): string =>
  `SBX${String(randomInt(0, 100_000_000)).padStart(8, '0')}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

export const takesNewOrders = (channel: Pick<ChannelRow, 'provider'>, sandboxEnabled: boolean): boolean =>
  sandboxEnabled || channel.provider !== 'sandbox';

/** A channel as the operator API and the command line show it. */
export function presentChannel(row: ChannelRow, merchantNo: string) {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    merchant: merchantNo,
    code: row.code,
    kind: row.kind,
    provider: row.provider,
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
