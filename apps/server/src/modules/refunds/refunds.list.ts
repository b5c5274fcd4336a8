import { RefundListQuerySchema, RefundListResponseSchema } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { refunds } from '../../db/schema/index.ts';
import { columnsFor, defineList, listRollup, STATUS_TITLE, TITLE, titles } from '../lists/index.ts';
import { refundView } from './refunds.service.ts';

const col = columnsFor(refunds);

const STATUS = {
  processing: STATUS_TITLE.processing,
  succeeded: titles('Succeeded', '退款成功', 'Thành công'),
  failed: titles('Failed', '退款失败', 'Thất bại'),
};

/** Receive money > Refunds (DESIGN 14): the sum of amounts from list_hourly by status and channel. */
export const refundsList = defineList({
  path: '/api/merchant/refunds',
  perm: 'collection:view',
  query: RefundListQuerySchema,
  response: RefundListResponseSchema,
  table: refunds,
  filters: {
    refundNo: 'refund_no',
    outRefundNo: 'out_refund_no',
    tradeNo: 'trade_no',
    status: 'status',
    channel: { column: refunds.channelCode, query: 'channel' },
  },
  numbers: ['refundNo', 'outRefundNo', 'tradeNo'],
  sums: { amountMinor: 'amount' },
  rollup: listRollup('refund', {
    status: 'status',
    facet: 'channel',
    a: 'amountMinor',
  }),
  view: (row) => refundView(row),
  export: {
    kind: 'refunds',
    title: titles('Refunds', '退款记录', 'Hoàn tiền'),
    columns: [
      col.text(titles('Refund number', '退款单号', 'Mã hoàn tiền'), (r) => r.refundNo),
      col.text(
        titles('Merchant refund number', '商户退款单号', 'Mã hoàn tiền của cửa hàng'),
        (r) => r.outRefundNo,
      ),
      col.text(titles('Order number', '订单号', 'Mã đơn'), (r) => r.tradeNo),
      col.text(titles('Merchant order number', '商户订单号', 'Mã đơn của cửa hàng'), (r) => r.outTradeNo),
      col.label(TITLE.status, STATUS, (r) => r.status),
      col.amount(TITLE.amount, (r) => r.amountMinor),
      col.text(TITLE.channel, (r) => r.channelCode),
      col.text(titles('Reason', '退款原因', 'Lý do'), (r) => r.reason),
      col.text(TITLE.failureReason, (r) => r.failureReason),
      col.time(TITLE.created, (r) => r.createdAt),
      col.time(TITLE.finished, (r) => r.finishedAt),
    ],
  },
});
