import type { Collection } from '@paydesk/shared/collections/collections.schemas.ts';

// Collection orders as GET /api/merchant/collections answers them, for the collection pages' tests.

/** A paid, unsettled order of 1,234.50 CNY (fee 7.41) on the sandbox, paid by Li Lei, unless changed. */
export const collection = (tradeNo: string, changes: Partial<Collection> = {}): Collection => ({
  trade_no: tradeNo,
  out_trade_no: `OUT-${tradeNo}`,
  status: 'paid',
  settlement_status: 'unsettled',
  amount: '1234.5',
  fee: '7.41',
  currency: 'CNY',
  channel: 'sandbox',
  payer_name: 'Li Lei',
  note: null,
  channel_ref: 'SBX4471029388150062',
  settlement_no: null,
  created_at: '2026-03-01T00:30:00Z',
  paid_at: '2026-03-01T00:31:05Z',
  expires_at: '2026-03-01T01:00:00Z',
  settled_at: null,
  ...changes,
});
