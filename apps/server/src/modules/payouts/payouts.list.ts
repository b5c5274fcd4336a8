import { maskAccount } from '@paydesk/shared/payouts/bank-rules.ts';
import { PayoutListQuerySchema, PayoutListResponseSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { payouts } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { channelRefColumn, defineList, orderColumns, orderListParts } from '../lists/index.ts';
import { payoutView } from './payouts.service.ts';

const STATUS: Record<string, Titles> = {
  pending: { en: 'Pending', 'zh-cn': '待处理', vi: 'Chờ xử lý' },
  processing: { en: 'Processing', 'zh-cn': '处理中', vi: 'Đang xử lý' },
  success: { en: 'Success', 'zh-cn': '成功', vi: 'Thành công' },
  failed: { en: 'Failed', 'zh-cn': '失败', vi: 'Thất bại' },
  cancelled: { en: 'Cancelled', 'zh-cn': '已取消', vi: 'Đã hủy' },
  rejected: { en: 'Rejected', 'zh-cn': '已拒绝', vi: 'Bị từ chối' },
  refund_received: { en: 'Refund received', 'zh-cn': '已退款', vi: 'Đã nhận hoàn tiền' },
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
    title: { en: 'Payouts', 'zh-cn': '代付订单', vi: 'Đơn chi hộ' },
    columns: [
      ...orderColumns(),
      {
        title: { en: 'Status', 'zh-cn': '状态', vi: 'Trạng thái' },
        type: 'text',
        value: (r, f) => f.label(STATUS, r.status),
      },
      {
        title: { en: 'Payee', 'zh-cn': '收款人', vi: 'Người nhận' },
        type: 'text',
        value: (r) => r.payeeName,
      },
      {
        title: { en: 'Receiving account', 'zh-cn': '收款账号', vi: 'Tài khoản nhận' },
        type: 'text',
        value: (r) => maskAccount(r.accountNo),
      },
      {
        title: { en: 'Bank', 'zh-cn': '银行', vi: 'Ngân hàng' },
        type: 'text',
        value: (r) => r.bankName ?? r.bankCode,
      },
      { title: { en: 'Channel', 'zh-cn': '通道', vi: 'Kênh' }, type: 'text', value: (r) => r.channelCode },
      channelRefColumn(),
      {
        title: { en: 'Failure reason', 'zh-cn': '失败原因', vi: 'Lý do thất bại' },
        type: 'text',
        value: (r) => r.failureReason,
      },
      { title: { en: 'Note', 'zh-cn': '备注', vi: 'Ghi chú' }, type: 'text', value: (r) => r.note },
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
