import {
  CollectionListQuerySchema,
  CollectionListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { collections } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { channelRefColumn, defineList, orderColumns, orderListParts } from '../lists/index.ts';
import { collectionView } from './collections.service.ts';

const COLLECTION_STATUS_LABELS: Record<string, Titles> = {
  to_be_paid: { en: 'To be paid', 'zh-cn': '待支付', vi: 'Chờ thanh toán' },
  paid: { en: 'Paid', 'zh-cn': '已支付', vi: 'Đã thanh toán' },
  closed: { en: 'Closed', 'zh-cn': '已关闭', vi: 'Đã đóng' },
  failed: { en: 'Failed', 'zh-cn': '失败', vi: 'Thất bại' },
};
const SETTLEMENT_STATUS_LABELS: Record<string, Titles> = {
  unsettled: { en: 'Unsettled', 'zh-cn': '未结算', vi: 'Chưa quyết toán' },
  pending_settlement: { en: 'Pending settlement', 'zh-cn': '待结算', vi: 'Chờ quyết toán' },
  settled: { en: 'Settled', 'zh-cn': '已结算', vi: 'Đã quyết toán' },
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
    title: { en: 'Collections', 'zh-cn': '代收订单', vi: 'Đơn thu hộ' },
    columns: [
      ...orderColumns(),
      {
        title: { en: 'Order status', 'zh-cn': '订单状态', vi: 'Trạng thái đơn' },
        type: 'text',
        value: (r, f) => f.label(COLLECTION_STATUS_LABELS, r.status),
      },
      {
        title: { en: 'Settlement status', 'zh-cn': '结算状态', vi: 'Trạng thái quyết toán' },
        type: 'text',
        value: (r, f) => f.label(SETTLEMENT_STATUS_LABELS, r.settlementStatus),
      },
      { title: { en: 'Channel', 'zh-cn': '通道', vi: 'Kênh' }, type: 'text', value: (r) => r.channelCode },
      channelRefColumn(),
      { title: { en: 'Payer', 'zh-cn': '付款人', vi: 'Người trả' }, type: 'text', value: (r) => r.payerName },
      { title: { en: 'Note', 'zh-cn': '备注', vi: 'Ghi chú' }, type: 'text', value: (r) => r.note },
      {
        title: { en: 'Created', 'zh-cn': '创建时间', vi: 'Thời gian tạo' },
        type: 'text',
        value: (r, f) => f.time(r.createdAt),
      },
      {
        title: { en: 'Paid', 'zh-cn': '支付时间', vi: 'Thời gian thanh toán' },
        type: 'text',
        value: (r, f) => f.time(r.paidAt),
      },
      {
        title: { en: 'Settled', 'zh-cn': '结算时间', vi: 'Thời gian quyết toán' },
        type: 'text',
        value: (r, f) => f.time(r.settledAt),
      },
    ],
  },
});
