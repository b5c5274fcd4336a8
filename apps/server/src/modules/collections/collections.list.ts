import {
  CollectionListQuerySchema,
  CollectionListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { collections } from '../../db/schema/index.ts';
import { defineList, orderColumnsFor, orderListParts, STATUS_TITLE, TITLE, titles } from '../lists/index.ts';
import { collectionView } from './collections.service.ts';

const col = orderColumnsFor(collections);

const COLLECTION_STATUS_LABELS = {
  to_be_paid: titles('To be paid', '待支付', 'Chờ thanh toán'),
  paid: titles('Paid', '已支付', 'Đã thanh toán'),
  closed: titles('Closed', '已关闭', 'Đã đóng'),
  failed: STATUS_TITLE.failed,
};
const SETTLEMENT_STATUS_LABELS = {
  unsettled: titles('Unsettled', '未结算', 'Chưa quyết toán'),
  pending_settlement: titles('Pending settlement', '待结算', 'Chờ quyết toán'),
  settled: titles('Settled', '已结算', 'Đã quyết toán'),
};

/** Receive money > Transactions: sums of amount and fee from the order rollups. */
export const collectionsList = defineList({
  path: '/api/merchant/collections',
  perm: 'collection:view',
  query: CollectionListQuerySchema,
  response: CollectionListResponseSchema,
  ...orderListParts(collections, 'collection'),
  view: (row) => collectionView(row),
  export: {
    kind: 'collections',
    title: titles('Collections', '代收订单', 'Đơn thu hộ'),
    columns: [
      ...col.head(),
      col.label(
        titles('Order status', '订单状态', 'Trạng thái đơn'),
        COLLECTION_STATUS_LABELS,
        (r) => r.status,
      ),
      col.label(
        titles('Settlement status', '结算状态', 'Trạng thái quyết toán'),
        SETTLEMENT_STATUS_LABELS,
        (r) => r.settlementStatus,
      ),
      col.text(TITLE.channel, (r) => r.channelCode),
      col.channelRef(),
      col.text(titles('Payer', '付款人', 'Người trả'), (r) => r.payerName),
      col.text(TITLE.note, (r) => r.note),
      col.time(TITLE.created, (r) => r.createdAt),
      col.time(titles('Paid', '支付时间', 'Thời gian thanh toán'), (r) => r.paidAt),
      col.time(TITLE.settled, (r) => r.settledAt),
    ],
  },
});
