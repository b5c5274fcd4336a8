import {
  WithdrawalListQuerySchema,
  WithdrawalListResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { sql } from 'drizzle-orm';
import { withdrawals } from '../../db/schema/index.ts';
import { columnsFor, defineList, listRollup, STATUS_TITLE, TITLE, titles } from '../lists/index.ts';
import { presentWithdrawal } from './withdrawals.service.ts';

const col = columnsFor(withdrawals);

const STATUS = {
  pending_review: STATUS_TITLE.pendingReview,
  approved: titles('Approved', '已审核', 'Đã duyệt'),
  paid: titles('Paid', '已打款', 'Đã chi trả'),
  rejected: STATUS_TITLE.rejected,
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
  filters: { withdrawalNo: 'withdrawal_no', status: 'status', network: 'network' },
  numbers: ['withdrawalNo'],
  sums: {
    amountUsdtMinor: { name: 'amount', currency: 'USDT' },
    feeUsdtMinor: { name: 'fee', currency: 'USDT' },
    localTotalMinor: {
      name: 'local_total',
      of: (r) => r.amountLocalMinor + r.feeLocalMinor,
      sql: sql`${withdrawals.amountLocalMinor} + ${withdrawals.feeLocalMinor}`,
    },
  },
  rollup: listRollup('withdrawal', {
    status: 'status',
    facet: 'network',
    a: 'amountUsdtMinor',
    b: 'feeUsdtMinor',
    c: 'localTotalMinor',
  }),
  view: (row) => presentWithdrawal(row),
  export: {
    kind: 'withdrawals',
    title: titles('Withdrawals', '提现记录', 'Lịch sử rút tiền'),
    columns: [
      col.text(titles('Withdrawal number', '提现单号', 'Mã rút tiền'), (r) => r.withdrawalNo),
      col.label(TITLE.reviewStatus, STATUS, (r) => r.status),
      col.amount(TITLE.amount, (r) => r.amountUsdtMinor, 'USDT'),
      col.amount(titles('Fee', '手续费', 'Phí'), (r) => r.feeUsdtMinor, 'USDT'),
      col.text(TITLE.networkType, (r) => r.network),
      col.text(TITLE.walletAddress, (r) => r.address),
      col.text(TITLE.rate, (r) => r.rate),
      col.amount(
        titles('Local-currency amount', '本币金额', 'Số tiền nội tệ'),
        (r) => r.amountLocalMinor + r.feeLocalMinor,
      ),
      col.text(titles('Transaction hash', '交易哈希', 'Mã giao dịch'), (r) => r.txHash),
      col.text(TITLE.reason, (r) => r.rejectReason),
      col.time(titles('Created', '创建时间', 'Ngày tạo'), (r) => r.createdAt),
    ],
  },
});
