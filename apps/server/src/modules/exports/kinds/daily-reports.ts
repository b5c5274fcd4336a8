import { type Currency } from '@paydesk/shared';
import {
  type DailyReportListQuery,
  DailyReportListQuerySchema,
} from '@paydesk/shared/reports/reports.schemas.ts';
import type { DbOrTx } from '../../../db/client.ts';
import type { DailyReportsService, DayFigures } from '../../reports/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type ExportKindHandler } from './export-kind.ts';

type DailyReportExportRow = DayFigures & { createdAt: Date; id: number; isFinal: boolean };
type Filter = { merchantId: number; range: Pick<DailyReportListQuery, 'start_date' | 'end_date'> };

const DAY_MS = 86_400_000;

/** The report's days are the merchant's own (its time zone), whoever asks. */
async function merchantOf(db: DbOrTx, merchantId: number) {
  const row = await exportsRepository.merchantTermsOf(db, merchantId);
  if (!row) throw new Error(`Merchant ${merchantId} not found.`);
  return { id: row.id, currency: row.currency as Currency, timezone: row.timezone };
}

/**
 * Funds > Daily report (GET /api/merchant/daily-reports): one row per day of the range, newest first, as
 * the page shows it (kept days and a live today, from the reports service, not a table: no snapshot id,
 * the whole range in one read). Sums keyed as the list's meta.sums: the range's opening and closing
 * balances, every figure added up.
 */
export function dailyReportsExport(dailyReports: DailyReportsService): ExportKindHandler {
  return defineExportKind({
    kind: 'daily_reports',
    title: { en: 'Daily reports', 'zh-cn': '日报表', vi: 'Báo cáo ngày' },
    perm: 'funds:view',
    query: DailyReportListQuerySchema,
    filter: (query, { merchantId }): Filter => ({
      merchantId,
      range: { start_date: query.start_date, end_date: query.end_date },
    }),
    maxId: async () => 0,
    // At creation: a range longer than the list allows is refused (422) before any day is computed.
    count: async (db, filter) =>
      dailyReports.rangeOf(
        (await merchantOf(db, filter.merchantId)).timezone,
        filter.range,
        'filters.start_date',
      ).days,
    rows: async (db, filter, _maxId, _limit, after): Promise<DailyReportExportRow[]> => {
      if (after) return [];
      const merchant = await merchantOf(db, filter.merchantId);
      const range = dailyReports.rangeOf(merchant.timezone, filter.range);
      return (await dailyReports.daysOf(merchant, range)).map(({ row, isFinal }) => ({
        ...row,
        createdAt: row.startsAt,
        id: Math.round(Date.parse(`${row.day}T00:00:00Z`) / DAY_MS),
        isFinal,
      }));
    },
    columns: [
      { title: { en: 'Date', 'zh-cn': '日期', vi: 'Ngày' }, type: 'text', value: (r) => r.day },
      {
        title: { en: 'Opening balance', 'zh-cn': '期初余额', vi: 'Số dư đầu ngày' },
        type: 'amount',
        value: (r, f) => f.amount(r.openingMinor),
      },
      {
        title: { en: 'Collections settled', 'zh-cn': '代收结算', vi: 'Thu hộ đã quyết toán' },
        type: 'amount',
        value: (r, f) => f.amount(r.collectionNetMinor + r.collectionFeeMinor),
      },
      {
        title: { en: 'Collection orders', 'zh-cn': '代收笔数', vi: 'Số đơn thu hộ' },
        type: 'integer',
        value: (r) => String(r.collectionCount),
      },
      {
        title: { en: 'Collection fees', 'zh-cn': '代收手续费', vi: 'Phí thu hộ' },
        type: 'amount',
        value: (r, f) => f.amount(r.collectionFeeMinor),
      },
      {
        title: { en: 'Payouts', 'zh-cn': '代付', vi: 'Chi hộ' },
        type: 'amount',
        value: (r, f) => f.amount(-r.payoutDeductedMinor - r.payoutFeeMinor),
      },
      {
        title: { en: 'Payout orders', 'zh-cn': '代付笔数', vi: 'Số đơn chi hộ' },
        type: 'integer',
        value: (r) => String(r.payoutCount),
      },
      {
        title: { en: 'Payout fees', 'zh-cn': '代付手续费', vi: 'Phí chi hộ' },
        type: 'amount',
        value: (r, f) => f.amount(r.payoutFeeMinor),
      },
      {
        title: { en: 'Refunds', 'zh-cn': '代付退款', vi: 'Hoàn tiền' },
        type: 'amount',
        value: (r, f) => f.amount(r.refundsMinor),
      },
      {
        title: { en: 'Collection refunds', 'zh-cn': '代收退款', vi: 'Hoàn tiền thu hộ' },
        type: 'amount',
        value: (r, f) => f.amount(r.collectionRefundsMinor),
      },
      {
        title: { en: 'Top-ups', 'zh-cn': '充值', vi: 'Nạp tiền' },
        type: 'amount',
        value: (r, f) => f.amount(r.topUpsMinor),
      },
      {
        title: { en: 'Withdrawals', 'zh-cn': '提现', vi: 'Rút tiền' },
        type: 'amount',
        value: (r, f) => f.amount(r.withdrawalsMinor),
      },
      {
        title: { en: 'Transfers', 'zh-cn': '资金调拨', vi: 'Điều chuyển' },
        type: 'amount',
        value: (r, f) => f.amount(r.transfersMinor),
      },
      {
        title: { en: 'Freezes', 'zh-cn': '冻结', vi: 'Phong tỏa' },
        type: 'amount',
        value: (r, f) => f.amount(r.freezesMinor),
      },
      {
        title: { en: 'Closing balance', 'zh-cn': '期末余额', vi: 'Số dư cuối ngày' },
        type: 'amount',
        value: (r, f) => f.amount(r.closingMinor),
      },
      {
        title: { en: 'Live', 'zh-cn': '实时', vi: 'Trực tiếp' },
        type: 'text',
        value: (r, f) => (r.isFinal ? '' : f.label(LIVE, 'live')),
      },
    ],
    sums: {
      // Rows are newest first: the range opens with the last row's opening, closes with the first's closing.
      opening_balance: { of: (r) => r.openingMinor, keep: 'last' },
      closing_balance: { of: (r) => r.closingMinor, keep: 'first' },
      collection_amount: (r) => r.collectionNetMinor + r.collectionFeeMinor,
      collection_count: { of: (r) => BigInt(r.collectionCount), in: 'integer' },
      collection_fee: (r) => r.collectionFeeMinor,
      payout_amount: (r) => -r.payoutDeductedMinor - r.payoutFeeMinor,
      payout_count: { of: (r) => BigInt(r.payoutCount), in: 'integer' },
      payout_fee: (r) => r.payoutFeeMinor,
      refunds: (r) => r.refundsMinor,
      collection_refunds: (r) => r.collectionRefundsMinor,
      top_ups: (r) => r.topUpsMinor,
      withdrawals: (r) => r.withdrawalsMinor,
      transfers: (r) => r.transfersMinor,
      freezes: (r) => r.freezesMinor,
      entries: { of: (r) => BigInt(r.entries), in: 'integer' },
    },
  });
}

const LIVE = { live: { en: 'Live', 'zh-cn': '实时', vi: 'Trực tiếp' } };
