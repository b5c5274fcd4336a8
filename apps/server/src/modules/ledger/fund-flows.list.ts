import { sql } from 'drizzle-orm';
import { FundFlowListQuerySchema, FundFlowListResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { fundFlows } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { defineList, TITLE, titles } from '../lists/index.ts';
import { fundFlowsRepository } from './fund-flows.repository.ts';
import { presentFundFlow } from './funds.service.ts';

export const FUND_FLOW_TYPE_LABELS: Record<string, Titles> = {
  collection_settlement: titles('Collection settlement', '代收结算', 'Quyết toán thu hộ'),
  payout_deduction: titles(
    'Payout deduction (with fee)',
    '代付扣款（含手续费）',
    'Khấu trừ chi hộ (gồm phí)',
  ),
  payout_refund: titles('Payout refund', '代付退款', 'Hoàn tiền chi hộ'),
  recharge: titles('Top-up', '充值', 'Nạp tiền'),
  withdrawal: titles('Withdrawal', '提现', 'Rút tiền'),
  withdrawal_rejected: titles('Withdrawal rejected', '提现驳回', 'Từ chối rút tiền'),
  transfer_in: titles('Funds transfer in', '资金转入', 'Chuyển tiền vào'),
  transfer_out: titles('Funds transfer out', '资金转出', 'Chuyển tiền ra'),
  funds_frozen: titles('Funds frozen', '资金冻结', 'Phong tỏa tiền'),
  funds_unfrozen: titles('Funds unfrozen', '资金解冻', 'Giải tỏa tiền'),
};

/**
 * Funds > Transactions: money in and money out from the fund-flow rollups (days, hours, minutes) the
 * ledger keeps. Its rows never change, so PostgreSQL writes its export (`sqlColumns`): it is the list that
 * grows to millions of rows.
 */
export const fundFlowsList = defineList({
  path: '/api/merchant/fund-flows',
  perm: 'funds:view',
  query: FundFlowListQuerySchema,
  response: FundFlowListResponseSchema,
  table: fundFlows,
  filters: { type: 'type', refNo: 'ref_no' },
  numbers: ['refNo'],
  sums: {
    inMinor: {
      name: 'money_in',
      of: (r) => (r.amountMinor > 0n ? r.amountMinor : 0n),
      sql: sql`greatest(${fundFlows.amountMinor}, 0)`,
    },
    outMinor: {
      name: 'money_out',
      of: (r) => (r.amountMinor < 0n ? -r.amountMinor : 0n),
      sql: sql`greatest(-${fundFlows.amountMinor}, 0)`,
    },
  },
  rollup: (db, filter) => fundFlowsRepository.totals(db, filter),
  view: (row, viewer) => presentFundFlow(row, viewer.currency),
  export: {
    kind: 'fund_flows',
    title: titles('Transactions', '资金流水', 'Giao dịch'),
    sqlColumns: [
      {
        title: titles('Transaction number', '流水号', 'Mã giao dịch'),
        type: 'integer',
        value: () => sql`${fundFlows.id}::text`,
      },
      {
        title: titles('Time', '时间', 'Thời gian'),
        type: 'text',
        plain: true,
        value: (f) => f.time(fundFlows.createdAt),
      },
      {
        title: titles('Transaction type', '交易类型', 'Loại giao dịch'),
        type: 'text',
        plain: true,
        value: (f) => f.label(FUND_FLOW_TYPE_LABELS, fundFlows.type),
      },
      {
        title: titles('Transaction amount', '交易金额', 'Số tiền giao dịch'),
        type: 'amount',
        value: (f) => f.amount(fundFlows.amountMinor),
      },
      {
        title: titles('Balance after transaction', '交易后余额', 'Số dư sau giao dịch'),
        type: 'amount',
        value: (f) => f.amount(fundFlows.availableAfterMinor),
      },
      {
        title: TITLE.currency,
        type: 'text',
        plain: true,
        value: (f) => sql`${f.currency}::text`,
      },
      {
        title: titles('Reference number', '关联单号', 'Mã tham chiếu'),
        type: 'text',
        value: () => sql`${fundFlows.refNo}`,
      },
      {
        title: TITLE.note,
        type: 'text',
        value: () => sql`${fundFlows.note}`,
      },
    ],
  },
});
