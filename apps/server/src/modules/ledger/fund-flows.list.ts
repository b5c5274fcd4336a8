import { sql } from 'drizzle-orm';
import { FundFlowListQuerySchema, FundFlowListResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { fundFlows } from '../../db/schema/index.ts';
import type { Titles } from '../exports/index.ts';
import { defineList } from '../lists/index.ts';
import { fundFlowsRepository } from './fund-flows.repository.ts';
import { presentFundFlow } from './funds.service.ts';

export const FUND_FLOW_TYPE_LABELS: Record<string, Titles> = {
  collection_settlement: { en: 'Collection settlement', 'zh-cn': '代收结算', vi: 'Quyết toán thu hộ' },
  payout_deduction: {
    en: 'Payout deduction (with fee)',
    'zh-cn': '代付扣款（含手续费）',
    vi: 'Khấu trừ chi hộ (gồm phí)',
  },
  payout_refund: { en: 'Payout refund', 'zh-cn': '代付退款', vi: 'Hoàn tiền chi hộ' },
  recharge: { en: 'Top-up', 'zh-cn': '充值', vi: 'Nạp tiền' },
  withdrawal: { en: 'Withdrawal', 'zh-cn': '提现', vi: 'Rút tiền' },
  withdrawal_rejected: { en: 'Withdrawal rejected', 'zh-cn': '提现驳回', vi: 'Từ chối rút tiền' },
  transfer_in: { en: 'Funds transfer in', 'zh-cn': '资金转入', vi: 'Chuyển tiền vào' },
  transfer_out: { en: 'Funds transfer out', 'zh-cn': '资金转出', vi: 'Chuyển tiền ra' },
  funds_frozen: { en: 'Funds frozen', 'zh-cn': '资金冻结', vi: 'Phong tỏa tiền' },
  funds_unfrozen: { en: 'Funds unfrozen', 'zh-cn': '资金解冻', vi: 'Giải tỏa tiền' },
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
  filters: {
    type: { column: fundFlows.type, query: 'type' },
    refNo: { column: fundFlows.refNo, query: 'ref_no' },
  },
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
    title: { en: 'Transactions', 'zh-cn': '资金流水', vi: 'Giao dịch' },
    sqlColumns: [
      {
        title: { en: 'Transaction number', 'zh-cn': '流水号', vi: 'Mã giao dịch' },
        type: 'integer',
        value: () => sql`${fundFlows.id}::text`,
      },
      {
        title: { en: 'Time', 'zh-cn': '时间', vi: 'Thời gian' },
        type: 'text',
        plain: true,
        value: (f) => f.time(fundFlows.createdAt),
      },
      {
        title: { en: 'Transaction type', 'zh-cn': '交易类型', vi: 'Loại giao dịch' },
        type: 'text',
        plain: true,
        value: (f) => f.label(FUND_FLOW_TYPE_LABELS, fundFlows.type),
      },
      {
        title: { en: 'Transaction amount', 'zh-cn': '交易金额', vi: 'Số tiền giao dịch' },
        type: 'amount',
        value: (f) => f.amount(fundFlows.amountMinor),
      },
      {
        title: { en: 'Balance after transaction', 'zh-cn': '交易后余额', vi: 'Số dư sau giao dịch' },
        type: 'amount',
        value: (f) => f.amount(fundFlows.availableAfterMinor),
      },
      {
        title: { en: 'Currency', 'zh-cn': '币种', vi: 'Tiền tệ' },
        type: 'text',
        plain: true,
        value: (f) => sql`${f.currency}::text`,
      },
      {
        title: { en: 'Reference number', 'zh-cn': '关联单号', vi: 'Mã tham chiếu' },
        type: 'text',
        value: () => sql`${fundFlows.refNo}`,
      },
      {
        title: { en: 'Note', 'zh-cn': '备注', vi: 'Ghi chú' },
        type: 'text',
        value: () => sql`${fundFlows.note}`,
      },
    ],
  },
});
