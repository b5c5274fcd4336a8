import {
  COLLECTION_STATUSES,
  CollectionListQuerySchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { declaredListPage } from '../../../components/list-page/index.ts';
import { collectionsApi } from '../api/get-collections.ts';
import { COLLECTION_STATUS, SETTLEMENT_STATUS } from '../components/statuses.ts';

/** Receive money > Transactions: the merchant's collection (pay-in) orders, newest first. */
export default declaredListPage({
  name: 'collection',
  namespace: 'collection',
  title: 'routes:payments',
  query: CollectionListQuerySchema,
  api: collectionsApi,
  rowKey: 'trade_no',
  columns: [
    { key: 'tradeNo', title: 'columns.tradeNo', kind: 'text', field: 'trade_no' },
    { key: 'outTradeNo', title: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no' },
    {
      key: 'amount',
      title: 'columns.amount',
      kind: 'money',
      field: 'amount',
      currency: { field: 'currency' },
    },
    { key: 'fee', title: 'columns.fee', kind: 'money', field: 'fee', currency: { field: 'currency' } },
    { key: 'status', title: 'columns.status', kind: 'status', field: 'status', ...COLLECTION_STATUS },
    {
      key: 'settlementStatus',
      title: 'columns.settlementStatus',
      kind: 'status',
      field: 'settlement_status',
      ...SETTLEMENT_STATUS,
    },
    { key: 'channel', title: 'columns.channel', kind: 'text', field: 'channel' },
    { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
    { key: 'paidAt', title: 'columns.paidAt', kind: 'time', field: 'paid_at' },
  ],
  filters: [
    { kind: 'text', name: 'trade_no', label: 'columns.tradeNo', placeholder: 'filters.tradeNo', width: 240 },
    {
      kind: 'text',
      name: 'out_trade_no',
      label: 'columns.outTradeNo',
      placeholder: 'filters.outTradeNo',
      width: 260,
    },
    {
      kind: 'select',
      name: 'status',
      label: 'columns.status',
      placeholder: 'filters.status',
      options: COLLECTION_STATUSES,
      labels: 'status',
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: 'columns.time',
      placeholder: ['filters.startTime', 'filters.endTime'],
    },
  ],
  // The collection amount, order count and service fee of the whole filter, not just this page.
  sums: [
    { key: 'amount', label: 'sums.amount', kind: 'money', field: 'amount' },
    { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
    { key: 'fee', label: 'sums.fee', kind: 'money', field: 'fee' },
  ],
  empty: { none: 'empty.none', filtered: 'empty.filtered' },
  export: 'collections',
  detail: {
    title: { key: 'detail.title', param: 'tradeNo' },
    fields: [
      { key: 'tradeNo', label: 'columns.tradeNo', kind: 'text', field: 'trade_no', copyable: true },
      { key: 'outTradeNo', label: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no', copyable: true },
      { key: 'status', label: 'columns.status', kind: 'status', field: 'status', ...COLLECTION_STATUS },
      {
        key: 'settlementStatus',
        label: 'columns.settlementStatus',
        kind: 'status',
        field: 'settlement_status',
        ...SETTLEMENT_STATUS,
      },
      {
        key: 'amount',
        label: 'columns.amount',
        kind: 'money',
        field: 'amount',
        currency: { field: 'currency' },
      },
      { key: 'fee', label: 'columns.fee', kind: 'money', field: 'fee', currency: { field: 'currency' } },
      { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
      { key: 'channel', label: 'columns.channel', kind: 'text', field: 'channel' },
      { key: 'payerName', label: 'detail.payerName', kind: 'text', field: 'payer_name' },
      { key: 'note', label: 'detail.note', kind: 'text', field: 'note' },
      { key: 'settlementNo', label: 'detail.settlementNo', kind: 'text', field: 'settlement_no' },
      { key: 'createdAt', label: 'columns.createdAt', kind: 'time', field: 'created_at' },
      { key: 'paidAt', label: 'columns.paidAt', kind: 'time', field: 'paid_at' },
      { key: 'expiresAt', label: 'detail.expiresAt', kind: 'time', field: 'expires_at' },
      { key: 'settledAt', label: 'detail.settledAt', kind: 'time', field: 'settled_at' },
    ],
    sections: [
      {
        kind: 'timeline',
        field: 'timeline',
        title: 'detail.timeline',
        empty: 'detail.noTimeline',
        steps: 'detail.steps',
        colors: {
          created: 'blue',
          paid: 'green',
          failed: 'red',
          closed: 'gray',
          settled: 'green',
          notified: 'blue',
        },
      },
      { kind: 'callbacks', field: 'callbacks', perm: 'collection:notify' },
    ],
  },
});
