import { SettlementListQuerySchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { declaredListPage, filter } from '../../../components/list-page/index.ts';
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
    { key: 'gross', title: 'settlements.columns.gross', kind: 'money', field: 'gross' },
    { key: 'fee', title: 'settlements.columns.fee', kind: 'money', field: 'fee' },
    { key: 'net', title: 'settlements.columns.net', kind: 'money', field: 'net' },
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
    filter.timeRange('settlements.columns.time'),
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
    // The columns' values, its number copyable.
    fields: [
      { column: 'settlementNo', copyable: true },
      'channel',
      'cycle',
      'businessDate',
      'orderCount',
      'gross',
      'fee',
      'net',
      'settledAt',
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
