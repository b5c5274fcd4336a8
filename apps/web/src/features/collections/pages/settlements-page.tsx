import { SettlementListQuerySchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { declaredListPage, timeRangeFilter } from '../../../components/list-page/index.ts';
import { settlementsApi } from '../api/get-settlements.ts';
import { settlementCycleLabel } from '../components/settlement-cycle.ts';
import { SettlementOrders } from '../components/settlement-orders.tsx';

/** Receive money > Settlements: the batches that moved paid orders into the balance, newest first. */
export default declaredListPage({
  name: 'settlement',
  namespace: 'collections',
  title: 'routes:settlements',
  query: SettlementListQuerySchema,
  api: settlementsApi,
  rowKey: 'settlement_no',
  columns: [
    { key: 'settlementNo', title: 'settlements.columns.settlementNo', kind: 'text', field: 'settlement_no' },
    { key: 'channel', title: 'settlements.columns.channel', kind: 'text', field: 'channel' },
    {
      key: 'cycle',
      title: 'settlements.columns.cycle',
      kind: 'custom',
      render: (row) => settlementCycleLabel(row.cycle),
    },
    { key: 'businessDate', title: 'settlements.columns.businessDate', kind: 'text', field: 'business_date' },
    { key: 'orderCount', title: 'settlements.columns.orderCount', kind: 'count', field: 'order_count' },
    {
      key: 'gross',
      title: 'settlements.columns.gross',
      kind: 'money',
      field: 'gross',
    },
    {
      key: 'fee',
      title: 'settlements.columns.fee',
      kind: 'money',
      field: 'fee',
    },
    {
      key: 'net',
      title: 'settlements.columns.net',
      kind: 'money',
      field: 'net',
    },
    { key: 'settledAt', title: 'settlements.columns.settledAt', kind: 'time', field: 'settled_at' },
  ],
  filters: [
    {
      kind: 'text',
      name: 'settlement_no',
      label: 'settlements.columns.settlementNo',
      placeholder: 'settlements.filters.settlementNo',
      width: 240,
    },
    {
      kind: 'text',
      name: 'channel',
      label: 'settlements.columns.channel',
      placeholder: 'settlements.filters.channel',
    },
    timeRangeFilter('settlements.columns.time'),
  ],
  // Gross, fee, net and the number of orders of the whole filter, not just this page.
  sums: [
    { key: 'gross', label: 'settlements.sums.gross', kind: 'money', field: 'gross' },
    { key: 'fee', label: 'settlements.sums.fee', kind: 'money', field: 'fee' },
    { key: 'net', label: 'settlements.sums.net', kind: 'money', field: 'net' },
    { key: 'count', label: 'settlements.sums.count', kind: 'count', field: 'count' },
  ],
  empty: 'settlements.empty',
  export: 'settlements',
  detail: {
    title: { key: 'settlements.detail.title', param: 'settlementNo' },
    fields: [
      {
        key: 'settlementNo',
        label: 'settlements.columns.settlementNo',
        kind: 'text',
        field: 'settlement_no',
        copyable: true,
      },
      { key: 'channel', label: 'settlements.columns.channel', kind: 'text', field: 'channel' },
      {
        key: 'cycle',
        label: 'settlements.columns.cycle',
        kind: 'custom',
        render: (batch) => settlementCycleLabel(batch.cycle),
      },
      {
        key: 'businessDate',
        label: 'settlements.columns.businessDate',
        kind: 'text',
        field: 'business_date',
      },
      { key: 'orderCount', label: 'settlements.columns.orderCount', kind: 'count', field: 'order_count' },
      {
        key: 'gross',
        label: 'settlements.columns.gross',
        kind: 'money',
        field: 'gross',
      },
      {
        key: 'fee',
        label: 'settlements.columns.fee',
        kind: 'money',
        field: 'fee',
      },
      {
        key: 'net',
        label: 'settlements.columns.net',
        kind: 'money',
        field: 'net',
      },
      { key: 'settledAt', label: 'settlements.columns.settledAt', kind: 'time', field: 'settled_at' },
    ],
    sections: [
      {
        kind: 'custom',
        title: 'settlements.detail.orders',
        render: (batch, context) => (
          <SettlementOrders key={batch.settlement_no} orders={batch.orders} context={context} />
        ),
      },
    ],
  },
});
