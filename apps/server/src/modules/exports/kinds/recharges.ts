import { RechargeListQuerySchema } from '@paydesk/shared/recharges/recharges.schemas.ts';
import { recharges } from '../../../db/schema/index.ts';
import { localRangeToUtc } from '../../../lib/timezone.ts';
import { type RechargeRow, rechargesPage, rechargesTotals } from '../../recharges/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type Titles } from './export-kind.ts';

const STATUS: Record<string, Titles> = {
  pending_review: { en: 'Pending review', 'zh-cn': '待审核', vi: 'Chờ duyệt' },
  approved: { en: 'Approved', 'zh-cn': '已通过', vi: 'Đã duyệt' },
  rejected: { en: 'Rejected', 'zh-cn': '已驳回', vi: 'Bị từ chối' },
};

/**
 * Funds > Top-up record (GET /api/merchant/recharges): the amount sent in USDT, the amount credited in the
 * merchant's currency, summed as the list does (amount in USDT, credited in the merchant's currency).
 */
export const rechargesExport = defineExportKind({
  kind: 'recharges',
  title: { en: 'Top-ups', 'zh-cn': '充值记录', vi: 'Lịch sử nạp tiền' },
  perm: 'topup:view',
  query: RechargeListQuerySchema,
  filter: (query, { merchantId, timeZone }) => ({
    merchantId,
    rechargeNo: query.recharge_no,
    status: query.status,
    network: query.network,
    ...localRangeToUtc(query.start_time, query.end_time, timeZone),
  }),
  maxId: (db) => exportsRepository.maxIdOf(db, recharges),
  count: async (db, filter) => (await rechargesTotals(db, filter)).count,
  rows: (db, filter, maxId, limit, after): Promise<RechargeRow[]> =>
    rechargesPage(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
  columns: [
    {
      title: { en: 'Top-up number', 'zh-cn': '充值单号', vi: 'Mã nạp tiền' },
      type: 'text',
      value: (r) => r.rechargeNo,
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
  sums: {
    amount: { of: (r) => r.amountMinor, in: 'USDT' },
    credited: (r) => r.creditedMinor ?? 0n,
  },
});
