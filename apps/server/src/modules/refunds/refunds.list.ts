import { RefundListQuerySchema, RefundListResponseSchema } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { refunds } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { defineList, listRollup } from '../lists/index.ts';
import { refundView } from './refunds.service.ts';

const STATUS: Record<string, Titles> = {
  processing: { en: 'Processing', 'zh-cn': '处理中', vi: 'Đang xử lý' },
  succeeded: { en: 'Succeeded', 'zh-cn': '退款成功', vi: 'Thành công' },
  failed: { en: 'Failed', 'zh-cn': '退款失败', vi: 'Thất bại' },
};

/** Receive money > Refunds (DESIGN 14): the sum of amounts from list_hourly by status and channel. */
export const refundsList = defineList({
  path: '/api/merchant/refunds',
  perm: 'collection:view',
  query: RefundListQuerySchema,
  response: RefundListResponseSchema,
  table: refunds,
  filters: {
    refundNo: { column: refunds.refundNo, query: 'refund_no' },
    outRefundNo: { column: refunds.outRefundNo, query: 'out_refund_no' },
    tradeNo: { column: refunds.tradeNo, query: 'trade_no' },
    status: { column: refunds.status, query: 'status' },
    channel: { column: refunds.channelCode, query: 'channel' },
  },
  numbers: ['refundNo', 'outRefundNo', 'tradeNo'],
  sums: {
    amountMinor: { name: 'amount', of: (r) => r.amountMinor, sql: refunds.amountMinor },
  },
  rollup: listRollup<'refundNo' | 'outRefundNo' | 'tradeNo' | 'status' | 'channel', 'amountMinor'>('refund', {
    status: 'status',
    facet: 'channel',
    a: 'amountMinor',
  }),
  view: (row) => refundView(row),
  export: {
    kind: 'refunds',
    title: { en: 'Refunds', 'zh-cn': '退款记录', vi: 'Hoàn tiền' },
    columns: [
      {
        title: { en: 'Refund number', 'zh-cn': '退款单号', vi: 'Mã hoàn tiền' },
        type: 'text',
        value: (r) => r.refundNo,
      },
      {
        title: { en: 'Merchant refund number', 'zh-cn': '商户退款单号', vi: 'Mã hoàn tiền của cửa hàng' },
        type: 'text',
        value: (r) => r.outRefundNo,
      },
      {
        title: { en: 'Order number', 'zh-cn': '订单号', vi: 'Mã đơn' },
        type: 'text',
        value: (r) => r.tradeNo,
      },
      {
        title: { en: 'Merchant order number', 'zh-cn': '商户订单号', vi: 'Mã đơn của cửa hàng' },
        type: 'text',
        value: (r) => r.outTradeNo,
      },
      {
        title: { en: 'Status', 'zh-cn': '状态', vi: 'Trạng thái' },
        type: 'text',
        value: (r, f) => f.label(STATUS, r.status),
      },
      {
        title: { en: 'Amount', 'zh-cn': '金额', vi: 'Số tiền' },
        type: 'amount',
        value: (r, f) => f.amount(r.amountMinor),
      },
      { title: { en: 'Channel', 'zh-cn': '通道', vi: 'Kênh' }, type: 'text', value: (r) => r.channelCode },
      { title: { en: 'Reason', 'zh-cn': '退款原因', vi: 'Lý do' }, type: 'text', value: (r) => r.reason },
      {
        title: { en: 'Failure reason', 'zh-cn': '失败原因', vi: 'Lý do thất bại' },
        type: 'text',
        value: (r) => r.failureReason,
      },
      {
        title: { en: 'Created', 'zh-cn': '创建时间', vi: 'Thời gian tạo' },
        type: 'text',
        value: (r, f) => f.time(r.createdAt),
      },
      {
        title: { en: 'Finished', 'zh-cn': '完成时间', vi: 'Thời gian hoàn tất' },
        type: 'text',
        value: (r, f) => f.time(r.finishedAt),
      },
    ],
  },
});
