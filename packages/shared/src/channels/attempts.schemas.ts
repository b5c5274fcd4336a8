import { z } from 'zod';

// Every attempt of an order on a channel (DESIGN 13), as the console's detail drawers show it. The order
// keeps one trade_no; each attempt has the channel's own reference and how it ended.

/**
 * pending: asked, no answer yet; processing: the provider took it; succeeded, failed; expired: a
 * collection nobody paid in time; cancelled: a payout stopped before the provider took it; returned: a
 * payout the bank sent back after it succeeded.
 */
export const ATTEMPT_OUTCOMES = [
  'pending',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
  'returned',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const ATTEMPT_ORDER_KINDS = ['collection', 'payout'] as const;
export type AttemptOrderKind = (typeof ATTEMPT_ORDER_KINDS)[number];

export const ChannelAttemptSchema = z.object({
  channel: z.string(),
  /** The provider's own number for the order on this attempt (channel_ref), once it gave one. */
  provider_ref: z.string().nullable(),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChannelAttempt = z.infer<typeof ChannelAttemptSchema>;
