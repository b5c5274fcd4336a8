import {
  REFUND_STATUSES,
  type Refund,
  type RefundDetail,
  RefundListQuerySchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import {
  declaredListPage,
  statusColumn,
  statusFilter,
  timelineSection,
  timeRangeFilter,
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
    { key: 'refundNo', title: 'columns.refundNo', kind: 'text', field: 'refund_no' },
    { key: 'outRefundNo', title: 'columns.outRefundNo', kind: 'text', field: 'out_refund_no' },
    { key: 'tradeNo', title: 'columns.tradeNo', kind: 'text', field: 'trade_no' },
    { key: 'amount', title: 'columns.amount', kind: 'money', field: 'amount' },
    statusColumn<Refund>(REFUND_STATUS),
    { key: 'reason', title: 'columns.reason', kind: 'text', field: 'reason' },
    { key: 'channel', title: 'columns.channel', kind: 'text', field: 'channel' },
    { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
    { key: 'finishedAt', title: 'columns.finishedAt', kind: 'time', field: 'finished_at' },
  ],
  filters: [
    {
      kind: 'text',
      name: 'refund_no',
      label: 'columns.refundNo',
      placeholder: 'filters.refundNo',
      width: 240,
    },
    {
      kind: 'text',
      name: 'out_refund_no',
      label: 'columns.outRefundNo',
      placeholder: 'filters.outRefundNo',
      width: 260,
    },
    { kind: 'text', name: 'trade_no', label: 'columns.tradeNo', placeholder: 'filters.tradeNo', width: 240 },
    statusFilter(REFUND_STATUSES),
    timeRangeFilter(),
  ],
  // The refunded amount and the count of the whole filter, not just this page.
  sums: [
    { key: 'amount', label: 'sums.amount', kind: 'money', field: 'amount' },
    { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
  ],
  export: 'refunds',
  detail: {
    title: { param: 'refundNo' },
    alerts: [
      { type: 'error', title: 'detail.failureReason', field: 'failure_reason', testId: 'refund-failure' },
    ],
    fields: [
      { key: 'refundNo', label: 'columns.refundNo', kind: 'text', field: 'refund_no', copyable: true },
      {
        key: 'outRefundNo',
        label: 'columns.outRefundNo',
        kind: 'text',
        field: 'out_refund_no',
        copyable: true,
      },
      { key: 'tradeNo', label: 'columns.tradeNo', kind: 'text', field: 'trade_no', copyable: true },
      { key: 'outTradeNo', label: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no', copyable: true },
      { key: 'status', label: 'columns.status', kind: 'status', field: 'status', ...REFUND_STATUS },
      { key: 'amount', label: 'columns.amount', kind: 'money', field: 'amount' },
      { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
      { key: 'channel', label: 'columns.channel', kind: 'text', field: 'channel' },
      {
        key: 'source',
        label: 'detail.source',
        kind: 'custom',
        render: (refund: RefundDetail, { t }) => t(`sources.${refund.source}`),
      },
      { key: 'reason', label: 'columns.reason', kind: 'text', field: 'reason' },
      { key: 'createdAt', label: 'columns.createdAt', kind: 'time', field: 'created_at' },
      { key: 'finishedAt', label: 'columns.finishedAt', kind: 'time', field: 'finished_at' },
    ],
    sections: [
      timelineSection<RefundDetail>({ created: 'blue', succeeded: 'green', failed: 'red', notified: 'blue' }),
      // No resend for refunds yet: their callbacks are read-only.
      { kind: 'callbacks', field: 'callbacks' },
    ],
  },
});
