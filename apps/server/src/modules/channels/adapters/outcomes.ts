import type { AttemptOutcome } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { CollectionStatus } from '@paydesk/shared/collections/collections.schemas.ts';
import type { PayoutStatus } from '@paydesk/shared/payouts/payouts.schemas.ts';
import type { ChannelPorts, OrderReport } from './adapter.ts';

// An order's status as the outcome of its attempt on the channel (channel_attempts.outcome): the same
// table serves the attempt written with an order, its updates and the migration's backfill.

export const COLLECTION_OUTCOMES: Record<CollectionStatus, AttemptOutcome> = {
  to_be_paid: 'pending',
  paid: 'succeeded',
  failed: 'failed',
  closed: 'expired',
};

export const PAYOUT_OUTCOMES: Record<PayoutStatus, AttemptOutcome> = {
  // Not sent to the channel yet (DESIGN 16): its attempt waits as a pending one does.
  pending_approval: 'pending',
  pending: 'pending',
  processing: 'processing',
  success: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  rejected: 'cancelled',
  refund_received: 'returned',
};

/** What a provider that keeps no state of its own says of a collection: our order, as it stands. */
export async function ourCollectionReport(
  tradeNo: string,
  ports: Pick<ChannelPorts, 'collections'>,
): Promise<OrderReport | undefined> {
  const order = await ports.collections.findAny(tradeNo);
  if (!order) return undefined;
  const outcome = COLLECTION_OUTCOMES[order.status as CollectionStatus];
  return { tradeNo, providerRef: order.channelRef, outcome };
}

/** The same for a payout. */
export async function ourPayoutReport(
  tradeNo: string,
  ports: Pick<ChannelPorts, 'payouts'>,
): Promise<OrderReport | undefined> {
  const row = await ports.payouts.findAny(tradeNo);
  if (!row) return undefined;
  return { tradeNo, providerRef: row.channelRef, outcome: PAYOUT_OUTCOMES[row.status as PayoutStatus] };
}
