import {
  COLLECTION_STATUSES,
  type Collection,
  type CollectionDetail,
  CollectionListQuerySchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import {
  amountCountFeeSums,
  declaredListPage,
  orderColumns,
  orderFields,
  orderFilters,
  orderSections,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { OrderRefunds, refundableOf } from '../../refunds/index.ts';
import { collectionsApi } from '../api/get-collections.ts';
import { COLLECTION_STATUS, SETTLEMENT_STATUS } from '../components/statuses.ts';

/** Receive money > Transactions: the merchant's collection (pay-in) orders, newest first. */
export default declaredListPage({
  name: 'collection',
  namespace: 'collections',
  title: 'routes:payments',
  query: CollectionListQuerySchema,
  api: collectionsApi,
  rowKey: 'trade_no',
  columns: orderColumns<Collection>(COLLECTION_STATUS, {
    afterStatus: [
      {
        key: 'settlementStatus',
        title: 'columns.settlementStatus',
        kind: 'status',
        field: 'settlement_status',
        ...SETTLEMENT_STATUS,
      },
    ],
    doneAt: { key: 'paidAt', field: 'paid_at' },
  }),
  filters: orderFilters(COLLECTION_STATUSES),
  // The collection amount, order count and service fee of the whole filter, not just this page.
  sums: amountCountFeeSums(),
  export: 'collections',
  detail: {
    title: { param: 'tradeNo' },
    fields: [
      ...orderFields<CollectionDetail>(COLLECTION_STATUS, [
        {
          key: 'settlementStatus',
          label: 'columns.settlementStatus',
          kind: 'status',
          field: 'settlement_status',
          ...SETTLEMENT_STATUS,
        },
      ]),
      // What its refunds took back so far and what is left to refund: a paid order's only (DESIGN 14).
      {
        key: 'refunded',
        label: 'detail.refunded',
        kind: 'custom',
        omitEmpty: true,
        render: (order) =>
          order.status === 'paid' ? (
            <MoneyText value={order.refunded} currency={order.currency} unit="code" />
          ) : null,
      },
      {
        key: 'refundable',
        label: 'detail.refundable',
        kind: 'custom',
        omitEmpty: true,
        render: (order) =>
          order.status === 'paid' ? (
            <MoneyText value={refundableOf(order)} currency={order.currency} unit="code" />
          ) : null,
      },
      { key: 'payerName', label: 'detail.payerName', kind: 'text', field: 'payer_name' },
      { key: 'note', label: 'detail.note', kind: 'text', field: 'note' },
      { key: 'settlementNo', label: 'detail.settlementNo', kind: 'text', field: 'settlement_no' },
      { key: 'createdAt', label: 'columns.createdAt', kind: 'time', field: 'created_at' },
      { key: 'paidAt', label: 'columns.paidAt', kind: 'time', field: 'paid_at' },
      { key: 'expiresAt', label: 'detail.expiresAt', kind: 'time', field: 'expires_at' },
      { key: 'settledAt', label: 'detail.settledAt', kind: 'time', field: 'settled_at' },
    ],
    sections: [
      // Its refunds, and the Refund action (refund:create) for a paid order with something left: first,
      // where the action is seen without scrolling.
      { kind: 'custom', title: 'detail.refunds', render: (order) => <OrderRefunds order={order} /> },
      ...orderSections<CollectionDetail>(
        { created: 'blue', paid: 'green', failed: 'red', closed: 'gray', settled: 'green', notified: 'blue' },
        'collection:notify',
      ),
    ],
  },
});
