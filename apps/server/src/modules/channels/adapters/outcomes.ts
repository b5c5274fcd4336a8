import type { AttemptOutcome } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { CollectionStatus } from '@paydesk/shared/collections/collections.schemas.ts';
import type { PayoutStatus } from '@paydesk/shared/payouts/payouts.schemas.ts';

// An order's status as the outcome of its attempt on the channel (channel_attempts.outcome): the same
// table serves the attempt written with an order, its updates and the migration's backfill.

export const COLLECTION_OUTCOMES: Record<CollectionStatus, AttemptOutcome> = {
  to_be_paid: 'pending',
  paid: 'succeeded',
  failed: 'failed',
  closed: 'expired',
};

export const PAYOUT_OUTCOMES: Record<PayoutStatus, AttemptOutcome> = {
  pending: 'pending',
  processing: 'processing',
  success: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  rejected: 'cancelled',
  refund_received: 'returned',
};
