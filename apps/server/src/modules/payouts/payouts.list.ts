import { maskAccount } from '@paydesk/shared/payouts/bank-rules.ts';
import { PayoutListQuerySchema, PayoutListResponseSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { payouts } from '../../db/schema/index.ts';
import { defineList, orderColumnsFor, orderListParts, STATUS_TITLE, TITLE, titles } from '../lists/index.ts';
import { payoutView } from './payouts.service.ts';

const col = orderColumnsFor(payouts);

const STATUS = {
  pending: titles('Pending', '待处理', 'Chờ xử lý'),
  processing: STATUS_TITLE.processing,
  success: titles('Success', '成功', 'Thành công'),
  failed: STATUS_TITLE.failed,
  cancelled: titles('Cancelled', '已取消', 'Đã hủy'),
  rejected: titles('Rejected', '已拒绝', 'Bị từ chối'),
  refund_received: titles('Refund received', '已退款', 'Đã nhận hoàn tiền'),
};

/** Send money history: sums of amount and fee from the order rollups; accounts masked in the export too. */
export const payoutsList = defineList({
  path: '/api/merchant/payouts',
  perm: 'payout:view',
  query: PayoutListQuerySchema,
  response: PayoutListResponseSchema,
  ...orderListParts(payouts, 'payout'),
  view: (row) => payoutView(row),
  export: {
    kind: 'payouts',
    title: titles('Payouts', '代付订单', 'Đơn chi hộ'),
    columns: [
      ...col.head(),
      col.label(TITLE.status, STATUS, (r) => r.status),
      col.text(titles('Payee', '收款人', 'Người nhận'), (r) => r.payeeName),
      col.text(titles('Receiving account', '收款账号', 'Tài khoản nhận'), (r) => maskAccount(r.accountNo)),
      col.text(titles('Bank', '银行', 'Ngân hàng'), (r) => r.bankName ?? r.bankCode),
      col.text(TITLE.channel, (r) => r.channelCode),
      col.channelRef(),
      col.text(TITLE.failureReason, (r) => r.failureReason),
      col.text(TITLE.note, (r) => r.note),
      col.time(TITLE.created, (r) => r.createdAt),
      col.time(TITLE.finished, (r) => r.finishedAt),
    ],
  },
});
