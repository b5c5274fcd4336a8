import {
  REFUND_STATUSES,
  type Refund,
  type RefundDetail,
  RefundListQuerySchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import {
  column,
  declaredListPage,
  filter,
  sum,
  timelineSection,
} from '../../../components/list-page/index.ts';
import { refundsApi } from '../api/get-refunds.ts';
import { REFUND_STATUS } from '../components/statuses.ts';

/** Receive money > Refunds (DESIGN 14): the refunds of the merchant's collections, newest first. */
export default declaredListPage({
  name: 'refund',
  namespace: 'refunds',
  title: 'routes:refunds',
  query: RefundListQuerySchema,
  api: refundsApi,
  rowKey: 'refund_no',
  columns: [
    column.text('refundNo', 'refund_no'),
    column.text('outRefundNo', 'out_refund_no'),
    column.text('tradeNo', 'trade_no'),
    column.money('amount', 'amount'),
    column.status<Refund>(REFUND_STATUS),
    column.text('reason', 'reason'),
    column.text('channel', 'channel'),
    column.time('createdAt', 'created_at'),
    column.time('finishedAt', 'finished_at'),
  ],
  filters: [
    filter.text('refund_no', 'refundNo', 240),
    filter.text('out_refund_no', 'outRefundNo', 260),
    filter.text('trade_no', 'tradeNo', 240),
    filter.status(REFUND_STATUSES),
    filter.timeRange(),
  ],
  // The refunded amount and the count of the whole filter, not just this page.
  sums: [sum.money('amount', 'amount'), sum.count('count', 'count')],
  export: 'refunds',
  detail: {
    title: { param: 'refundNo' },
    alerts: [
      { type: 'error', title: 'detail.failureReason', field: 'failure_reason', testId: 'refund-failure' },
    ],
    // The columns' values (its numbers copyable), with the order's number, currency and where it came from.
    fields: [
      { column: 'refundNo', copyable: true },
      { column: 'outRefundNo', copyable: true },
      { column: 'tradeNo', copyable: true },
      { key: 'outTradeNo', label: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no', copyable: true },
      'status',
      'amount',
      { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
      'channel',
      {
        key: 'source',
        label: 'detail.source',
        kind: 'custom',
        render: (refund: RefundDetail, { t }) => t(`sources.${refund.source}`),
      },
      'reason',
      'createdAt',
      'finishedAt',
    ],
    sections: [
      timelineSection<RefundDetail>({ created: 'blue', succeeded: 'green', failed: 'red', notified: 'blue' }),
      // No resend for refunds yet: their callbacks are read-only.
      { kind: 'callbacks', field: 'callbacks' },
    ],
  },
});
