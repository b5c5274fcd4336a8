import { TopUpListQuerySchema, TopUpListResponseSchema } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { topUps } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { defineList, listRollup } from '../lists/index.ts';
import { presentTopUp } from './top-ups.service.ts';

const STATUS: Record<string, Titles> = {
  pending_review: { en: 'Pending review', 'zh-cn': '待审核', vi: 'Chờ duyệt' },
  approved: { en: 'Approved', 'zh-cn': '已通过', vi: 'Đã duyệt' },
  rejected: { en: 'Rejected', 'zh-cn': '已驳回', vi: 'Bị từ chối' },
};

/**
 * Funds > Top-up record: the amount sent in USDT and the amount credited in the merchant's currency,
 * summed from list_hourly by status and network.
 */
export const topUpsList = defineList({
  path: '/api/merchant/recharges',
  perm: 'topup:view',
  query: TopUpListQuerySchema,
  response: TopUpListResponseSchema,
  table: topUps,
  filters: {
    topUpNo: { column: topUps.topUpNo, query: 'recharge_no' },
    status: { column: topUps.status, query: 'status' },
    network: { column: topUps.network, query: 'network' },
  },
  numbers: ['topUpNo'],
  sums: {
    amountMinor: { name: 'amount', of: (r) => r.amountMinor, sql: topUps.amountMinor, currency: 'USDT' },
    creditedMinor: { name: 'credited', of: (r) => r.creditedMinor, sql: topUps.creditedMinor },
  },
  rollup: listRollup('recharge', {
    status: 'status',
    facet: 'network',
    a: 'amountMinor',
    b: 'creditedMinor',
  }),
  view: (row) => presentTopUp(row),
  export: {
    kind: 'recharges',
    title: { en: 'Top-ups', 'zh-cn': '充值记录', vi: 'Lịch sử nạp tiền' },
    columns: [
      {
        title: { en: 'Top-up number', 'zh-cn': '充值单号', vi: 'Mã nạp tiền' },
        type: 'text',
        value: (r) => r.topUpNo,
      },
      { title: { en: 'Currency', 'zh-cn': '币种', vi: 'Loại tiền' }, type: 'text', value: () => 'USDT' },
      {
        title: { en: 'Network type', 'zh-cn': '网络类型', vi: 'Loại mạng' },
        type: 'text',
        value: (r) => r.network,
      },
      {
        title: { en: 'Wallet address', 'zh-cn': '钱包地址', vi: 'Địa chỉ ví' },
        type: 'text',
        value: (r) => r.depositAddress,
      },
      {
        title: { en: 'Recharge amount', 'zh-cn': '充值金额', vi: 'Số tiền nạp' },
        type: 'amount',
        currency: 'USDT',
        value: (r, f) => f.amount(r.amountMinor, 'USDT'),
      },
      {
        title: { en: 'USDT received', 'zh-cn': '实收 USDT', vi: 'USDT thực nhận' },
        type: 'amount',
        currency: 'USDT',
        value: (r, f) => (r.receivedMinor === null ? null : f.amount(r.receivedMinor, 'USDT')),
      },
      { title: { en: 'Rate', 'zh-cn': '汇率', vi: 'Tỷ giá' }, type: 'text', value: (r) => r.rate },
      {
        title: { en: 'Receipt amount', 'zh-cn': '到账金额', vi: 'Số tiền nhận' },
        type: 'amount',
        value: (r, f) => (r.creditedMinor === null ? null : f.amount(r.creditedMinor)),
      },
      {
        title: { en: 'Receipt amount (USD)', 'zh-cn': '到账金额（美元）', vi: 'Số tiền nhận (USD)' },
        type: 'amount',
        currency: 'USD',
        value: (r, f) => (r.creditedUsdMinor === null ? null : f.amount(r.creditedUsdMinor, 'USD')),
      },
      {
        title: { en: 'Review status', 'zh-cn': '审核状态', vi: 'Trạng thái duyệt' },
        type: 'text',
        value: (r, f) => f.label(STATUS, r.status),
      },
      { title: { en: 'Reason', 'zh-cn': '原因', vi: 'Lý do' }, type: 'text', value: (r) => r.reviewReason },
      {
        title: { en: 'Submitted at', 'zh-cn': '提交时间', vi: 'Thời gian gửi' },
        type: 'text',
        value: (r, f) => f.time(r.createdAt),
      },
      {
        title: { en: 'Reviewed at', 'zh-cn': '审核时间', vi: 'Thời gian duyệt' },
        type: 'text',
        value: (r, f) => f.time(r.reviewedAt),
      },
    ],
  },
});
