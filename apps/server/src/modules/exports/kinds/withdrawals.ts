import { WithdrawalListQuerySchema } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { withdrawals } from '../../../db/schema/index.ts';
import { localRangeToUtc } from '../../../lib/timezone.ts';
import { type WithdrawalRow, withdrawalsPage, withdrawalsTotals } from '../../withdrawals/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type Titles } from './export-kind.ts';

const STATUS: Record<string, Titles> = {
  pending_review: { en: 'Pending review', 'zh-cn': '待审核', vi: 'Chờ duyệt' },
  approved: { en: 'Approved', 'zh-cn': '已审核', vi: 'Đã duyệt' },
  paid: { en: 'Paid', 'zh-cn': '已打款', vi: 'Đã chi trả' },
  rejected: { en: 'Rejected', 'zh-cn': '已驳回', vi: 'Bị từ chối' },
};

/**
 * Funds > Withdrawal record (GET /api/merchant/withdrawals): amount and fee in USDT, the local-currency
 * total (amount + fee) in the merchant's, summed as the list does.
 */
export const withdrawalsExport = defineExportKind({
  kind: 'withdrawals',
  title: { en: 'Withdrawals', 'zh-cn': '提现记录', vi: 'Lịch sử rút tiền' },
  perm: 'withdrawal:view',
  query: WithdrawalListQuerySchema,
  filter: (query, { merchantId, timeZone }) => ({
    merchantId,
    withdrawalNo: query.withdrawal_no,
    status: query.status,
    network: query.network,
    ...localRangeToUtc(query.start_time, query.end_time, timeZone),
  }),
  maxId: (db) => exportsRepository.maxIdOf(db, withdrawals),
  count: async (db, filter) => (await withdrawalsTotals(db, filter)).count,
  rows: (db, filter, maxId, limit, after): Promise<WithdrawalRow[]> =>
    withdrawalsPage(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
  columns: [
    {
      title: { en: 'Withdrawal number', 'zh-cn': '提现单号', vi: 'Mã rút tiền' },
      type: 'text',
      value: (r) => r.withdrawalNo,
    },
    {
      title: { en: 'Review status', 'zh-cn': '审核状态', vi: 'Trạng thái duyệt' },
      type: 'text',
      value: (r, f) => f.label(STATUS, r.status),
    },
    {
      title: { en: 'Amount', 'zh-cn': '金额', vi: 'Số tiền' },
      type: 'amount',
      currency: 'USDT',
      value: (r, f) => f.amount(r.amountUsdtMinor, 'USDT'),
    },
    {
      title: { en: 'Fee', 'zh-cn': '手续费', vi: 'Phí' },
      type: 'amount',
      currency: 'USDT',
      value: (r, f) => f.amount(r.feeUsdtMinor, 'USDT'),
    },
    {
      title: { en: 'Network type', 'zh-cn': '网络类型', vi: 'Loại mạng' },
      type: 'text',
      value: (r) => r.network,
    },
    {
      title: { en: 'Wallet address', 'zh-cn': '钱包地址', vi: 'Địa chỉ ví' },
      type: 'text',
      value: (r) => r.address,
    },
    { title: { en: 'Rate', 'zh-cn': '汇率', vi: 'Tỷ giá' }, type: 'text', value: (r) => r.rate },
    {
      title: { en: 'Local-currency amount', 'zh-cn': '本币金额', vi: 'Số tiền nội tệ' },
      type: 'amount',
      value: (r, f) => f.amount(r.amountLocalMinor + r.feeLocalMinor),
    },
    {
      title: { en: 'Transaction hash', 'zh-cn': '交易哈希', vi: 'Mã giao dịch' },
      type: 'text',
      value: (r) => r.txHash,
    },
    { title: { en: 'Reason', 'zh-cn': '原因', vi: 'Lý do' }, type: 'text', value: (r) => r.rejectReason },
    {
      title: { en: 'Created', 'zh-cn': '创建时间', vi: 'Ngày tạo' },
      type: 'text',
      value: (r, f) => f.time(r.createdAt),
    },
  ],
  sums: {
    amount: { of: (r) => r.amountUsdtMinor, in: 'USDT' },
    fee: { of: (r) => r.feeUsdtMinor, in: 'USDT' },
    local_total: (r) => r.amountLocalMinor + r.feeLocalMinor,
  },
});
