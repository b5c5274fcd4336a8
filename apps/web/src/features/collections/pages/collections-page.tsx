import {
  COLLECTION_STATUSES,
  type Collection,
  type CollectionDetail,
  CollectionListQuerySchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { declaredListPage, orderDetail, orderList } from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { OrderRefunds, refundableOf } from '../../refunds/index.ts';
import { collectionsApi } from '../api/get-collections.ts';
import { COLLECTION_STATUS, SETTLEMENT_STATUS } from '../components/statuses.ts';

// The order list's columns, filters and sums (the collection amount, order count and service fee of the
// whole filter, not just this page), with the settlement status after the order's own.
const list = orderList<Collection>(COLLECTION_STATUS, COLLECTION_STATUSES, {
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
});

/** Receive money > Transactions: the merchant's collection (pay-in) orders, newest first. */
export default declaredListPage({
  name: 'collection',
  namespace: 'collections',
  title: 'routes:payments',
  query: CollectionListQuerySchema,
  api: collectionsApi,
  ...list,
  export: 'collections',
  detail: orderDetail<CollectionDetail>({
    afterStatus: ['settlementStatus'],
    fields: [
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
      'createdAt',
      'paidAt',
      { key: 'expiresAt', label: 'detail.expiresAt', kind: 'time', field: 'expires_at' },
      { key: 'settledAt', label: 'detail.settledAt', kind: 'time', field: 'settled_at' },
    ],
    // Its refunds, and the Refund action (refund:create) for a paid order with something left.
    sections: [
      { kind: 'custom', title: 'detail.refunds', render: (order) => <OrderRefunds order={order} /> },
    ],
    steps: {
      created: 'blue',
      paid: 'green',
      failed: 'red',
      closed: 'gray',
      settled: 'green',
      notified: 'blue',
    },
    notify: 'collection:notify',
  }),
});
