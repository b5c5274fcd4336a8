import { FundFlowListQuerySchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { fundFlows } from '../../../db/schema/index.ts';
import { localRangeToUtc } from '../../../lib/timezone.ts';
import { type FundFlowFilter, type FundFlowRow, fundFlowsRepository } from '../../ledger/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type Titles } from './export-kind.ts';

const TYPES: Record<string, Titles> = {
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

/** Funds > Transactions (GET /api/merchant/fund-flows): sums money_in and money_out as the list does. */
export const fundFlowsExport = defineExportKind({
  kind: 'fund_flows',
  title: { en: 'Transactions', 'zh-cn': '资金流水', vi: 'Giao dịch' },
  perm: 'funds:view',
  query: FundFlowListQuerySchema,
  filter: (query, { merchantId, timeZone }): FundFlowFilter => ({
    merchantId,
    type: query.type,
    refNo: query.ref_no,
    ...localRangeToUtc(query.start_time, query.end_time, timeZone),
  }),
  maxId: (db) => exportsRepository.maxIdOf(db, fundFlows),
  count: async (db, filter) => (await fundFlowsRepository.totals(db, filter)).count,
  rows: (db, filter, maxId, limit, after): Promise<FundFlowRow[]> =>
    fundFlowsRepository.findPage(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
  columns: [
    {
      title: { en: 'Transaction number', 'zh-cn': '流水号', vi: 'Mã giao dịch' },
      type: 'integer',
      value: (r) => String(r.id),
    },
    {
      title: { en: 'Time', 'zh-cn': '时间', vi: 'Thời gian' },
      type: 'text',
      value: (r, f) => f.time(r.createdAt),
    },
    {
      title: { en: 'Transaction type', 'zh-cn': '交易类型', vi: 'Loại giao dịch' },
      type: 'text',
      value: (r, f) => f.label(TYPES, r.type),
    },
    {
      title: { en: 'Transaction amount', 'zh-cn': '交易金额', vi: 'Số tiền giao dịch' },
      type: 'amount',
      value: (r, f) => f.amount(r.amountMinor),
    },
    {
      title: { en: 'Balance after transaction', 'zh-cn': '交易后余额', vi: 'Số dư sau giao dịch' },
      type: 'amount',
      value: (r, f) => f.amount(r.availableAfterMinor),
    },
    { title: { en: 'Currency', 'zh-cn': '币种', vi: 'Tiền tệ' }, type: 'text', value: (_, f) => f.currency },
    {
      title: { en: 'Reference number', 'zh-cn': '关联单号', vi: 'Mã tham chiếu' },
      type: 'text',
      value: (r) => r.refNo,
    },
    { title: { en: 'Note', 'zh-cn': '备注', vi: 'Ghi chú' }, type: 'text', value: (r) => r.note },
  ],
  sums: {
    money_in: (r) => (r.amountMinor > 0n ? r.amountMinor : 0n),
    money_out: (r) => (r.amountMinor < 0n ? -r.amountMinor : 0n),
  },
});
