import { TopUpListQuerySchema, TopUpListResponseSchema } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { topUps } from '../../db/schema/index.ts';
import { columnsFor, defineList, listRollup, STATUS_TITLE, TITLE, titles } from '../lists/index.ts';
import { presentTopUp } from './top-ups.service.ts';

const col = columnsFor(topUps);

const STATUS = {
  pending_review: STATUS_TITLE.pendingReview,
  approved: titles('Approved', '已通过', 'Đã duyệt'),
  rejected: STATUS_TITLE.rejected,
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
  filters: { topUpNo: 'recharge_no', status: 'status', network: 'network' },
  numbers: ['topUpNo'],
  sums: { amountMinor: { name: 'amount', currency: 'USDT' }, creditedMinor: 'credited' },
  rollup: listRollup('recharge', {
    status: 'status',
    facet: 'network',
    a: 'amountMinor',
    b: 'creditedMinor',
  }),
  view: (row) => presentTopUp(row),
  export: {
    kind: 'recharges',
    title: titles('Top-ups', '充值记录', 'Lịch sử nạp tiền'),
    columns: [
      col.text(titles('Top-up number', '充值单号', 'Mã nạp tiền'), (r) => r.topUpNo),
      col.text(titles('Currency', '币种', 'Loại tiền'), () => 'USDT'),
      col.text(TITLE.networkType, (r) => r.network),
      col.text(TITLE.walletAddress, (r) => r.depositAddress),
      col.amount(titles('Recharge amount', '充值金额', 'Số tiền nạp'), (r) => r.amountMinor, 'USDT'),
      col.amount(titles('USDT received', '实收 USDT', 'USDT thực nhận'), (r) => r.receivedMinor, 'USDT'),
      col.text(TITLE.rate, (r) => r.rate),
      col.amount(titles('Receipt amount', '到账金额', 'Số tiền nhận'), (r) => r.creditedMinor),
      col.amount(
        titles('Receipt amount (USD)', '到账金额（美元）', 'Số tiền nhận (USD)'),
        (r) => r.creditedUsdMinor,
        'USD',
      ),
      col.label(TITLE.reviewStatus, STATUS, (r) => r.status),
      col.text(TITLE.reason, (r) => r.reviewReason),
      col.time(titles('Submitted at', '提交时间', 'Thời gian gửi'), (r) => r.createdAt),
      col.time(titles('Reviewed at', '审核时间', 'Thời gian duyệt'), (r) => r.reviewedAt),
    ],
  },
});
