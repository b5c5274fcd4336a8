import type { Refund, RefundListResponse } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { listAnswer } from './list.ts';

// Refunds as GET /api/merchant/refunds answers them, for the Refunds page's and the collection drawer's tests.

/** A refund of order C1 as the list has it: 100.00 CNY, succeeded, made in the console unless changed. */
export const refund = (refundNo: string, changes: Partial<Refund> = {}): Refund => ({
  refund_no: refundNo,
  out_refund_no: `OR-${refundNo}`,
  trade_no: 'C1',
  out_trade_no: 'OUT-C1',
  status: 'succeeded',
  amount: '100.00',
  currency: 'CNY',
  reason: 'Damaged item',
  created_at: '2026-03-02T01:00:00Z',
  finished_at: '2026-03-02T01:00:05Z',
  failure_reason: null,
  channel: 'cn-main',
  source: 'console',
  ...changes,
});

/** One page of refunds with the sums of the whole filter (theirs unless given). */
export const refundPage = (
  rows: Refund[],
  meta: Partial<RefundListResponse['meta']> = {},
): RefundListResponse => listAnswer(rows, { sums: { amount: '0.00', count: rows.length }, ...meta });
