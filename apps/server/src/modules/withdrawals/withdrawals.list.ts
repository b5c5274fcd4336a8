import {
  WithdrawalListQuerySchema,
  WithdrawalListResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { sql } from 'drizzle-orm';
import { withdrawals } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { defineList, listRollup } from '../lists/index.ts';
import { presentWithdrawal } from './withdrawals.service.ts';

const STATUS: Record<string, Titles> = {
  pending_review: { en: 'Pending review', 'zh-cn': '待审核', vi: 'Chờ duyệt' },
  approved: { en: 'Approved', 'zh-cn': '已审核', vi: 'Đã duyệt' },
  paid: { en: 'Paid', 'zh-cn': '已打款', vi: 'Đã chi trả' },
  rejected: { en: 'Rejected', 'zh-cn': '已驳回', vi: 'Bị từ chối' },
};

/**
 * Funds > Withdrawal record: amount and fee in USDT, the local-currency total (amount + fee) in the
 * merchant's, summed from list_hourly by status and network.
 */
export const withdrawalsList = defineList({
  path: '/api/merchant/withdrawals',
  perm: 'withdrawal:view',
  query: WithdrawalListQuerySchema,
  response: WithdrawalListResponseSchema,
  table: withdrawals,
  filters: {
    withdrawalNo: { column: withdrawals.withdrawalNo, query: 'withdrawal_no' },
    status: { column: withdrawals.status, query: 'status' },
    network: { column: withdrawals.network, query: 'network' },
  },
  numbers: ['withdrawalNo'],
  sums: {
    amountMinor: {
      name: 'amount',
      of: (r) => r.amountUsdtMinor,
      sql: withdrawals.amountUsdtMinor,
      currency: 'USDT',
    },
    feeMinor: { name: 'fee', of: (r) => r.feeUsdtMinor, sql: withdrawals.feeUsdtMinor, currency: 'USDT' },
    localTotalMinor: {
      name: 'local_total',
      of: (r) => r.amountLocalMinor + r.feeLocalMinor,
      sql: sql`${withdrawals.amountLocalMinor} + ${withdrawals.feeLocalMinor}`,
    },
  },
  rollup: listRollup<'withdrawalNo' | 'status' | 'network', 'amountMinor' | 'feeMinor' | 'localTotalMinor'>(
    'withdrawal',
    { status: 'status', facet: 'network', a: 'amountMinor', b: 'feeMinor', c: 'localTotalMinor' },
  ),
  view: (row) => presentWithdrawal(row),
  export: {
    kind: 'withdrawals',
    title: { en: 'Withdrawals', 'zh-cn': '提现记录', vi: 'Lịch sử rút tiền' },
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
  },
});
