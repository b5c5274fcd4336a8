import { CollectionListQuerySchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { collections } from '../../../db/schema/index.ts';
import { localRangeToUtc } from '../../../lib/timezone.ts';
import { type CollectionRow, collectionsPage, collectionsTotals } from '../../collections/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type Titles } from './export-kind.ts';

export const COLLECTION_STATUS_LABELS: Record<string, Titles> = {
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

/** Receive money > Transactions (GET /api/merchant/collections): sums amount and fee as the list does. */
export const collectionsExport = defineExportKind({
  kind: 'collections',
  title: { en: 'Collections', 'zh-cn': '代收订单', vi: 'Đơn thu hộ' },
  perm: 'collection:view',
  query: CollectionListQuerySchema,
  filter: (query, { merchantId, timeZone }) => ({
    merchantId,
    tradeNo: query.trade_no,
    outTradeNo: query.out_trade_no,
    status: query.status,
    ...localRangeToUtc(query.start_time, query.end_time, timeZone),
  }),
  maxId: (db) => exportsRepository.maxIdOf(db, collections),
  count: async (db, filter) => (await collectionsTotals(db, filter)).count,
  rows: (db, filter, maxId, limit, after): Promise<CollectionRow[]> =>
    collectionsPage(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
  columns: [
    {
      title: { en: 'Order number', 'zh-cn': '订单号', vi: 'Mã đơn hàng' },
      type: 'text',
      value: (r) => r.tradeNo,
    },
    {
      title: { en: 'Merchant order number', 'zh-cn': '商户订单号', vi: 'Mã đơn hàng của thương nhân' },
      type: 'text',
      value: (r) => r.outTradeNo,
    },
    {
      title: { en: 'Amount', 'zh-cn': '金额', vi: 'Số tiền' },
      type: 'amount',
      value: (r, f) => f.amount(r.amountMinor),
    },
    {
      title: { en: 'Service fee', 'zh-cn': '手续费', vi: 'Phí dịch vụ' },
      type: 'amount',
      value: (r, f) => f.amount(r.feeMinor),
    },
    { title: { en: 'Currency', 'zh-cn': '币种', vi: 'Tiền tệ' }, type: 'text', value: (r) => r.currency },
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
  sums: { amount: (r) => r.amountMinor, fee: (r) => r.feeMinor },
});
