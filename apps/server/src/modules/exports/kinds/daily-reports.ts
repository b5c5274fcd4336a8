import { type Currency } from '@paydesk/shared';
import {
  type DailyReportListQuery,
  DailyReportListQuerySchema,
} from '@paydesk/shared/reports/reports.schemas.ts';
import type { DbOrTx } from '../../../db/client.ts';
import type { DailyReportsService, DayFigures } from '../../reports/index.ts';
import { columnsFor, titles } from '../../lists/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type ExportKindHandler } from './export-kind.ts';

type DailyReportExportRow = DayFigures & { createdAt: Date; id: number; isFinal: boolean };
type Filter = { merchantId: number; range: Pick<DailyReportListQuery, 'start_date' | 'end_date'> };

const DAY_MS = 86_400_000;
const col = columnsFor<DailyReportExportRow>();

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
    title: titles('Daily reports', '日报表', 'Báo cáo ngày'),
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
      col.text(titles('Date', '日期', 'Ngày'), (r) => r.day),
      col.amount(titles('Opening balance', '期初余额', 'Số dư đầu ngày'), (r) => r.openingMinor),
      col.amount(
        titles('Collections settled', '代收结算', 'Thu hộ đã quyết toán'),
        (r) => r.collectionNetMinor + r.collectionFeeMinor,
      ),
      col.integer(titles('Collection orders', '代收笔数', 'Số đơn thu hộ'), (r) => r.collectionCount),
      col.amount(titles('Collection fees', '代收手续费', 'Phí thu hộ'), (r) => r.collectionFeeMinor),
      col.amount(titles('Payouts', '代付', 'Chi hộ'), (r) => -r.payoutDeductedMinor - r.payoutFeeMinor),
      col.integer(titles('Payout orders', '代付笔数', 'Số đơn chi hộ'), (r) => r.payoutCount),
      col.amount(titles('Payout fees', '代付手续费', 'Phí chi hộ'), (r) => r.payoutFeeMinor),
      col.amount(titles('Refunds', '代付退款', 'Hoàn tiền'), (r) => r.refundsMinor),
      col.amount(
        titles('Collection refunds', '代收退款', 'Hoàn tiền thu hộ'),
        (r) => r.collectionRefundsMinor,
      ),
      col.amount(titles('Top-ups', '充值', 'Nạp tiền'), (r) => r.topUpsMinor),
      col.amount(titles('Withdrawals', '提现', 'Rút tiền'), (r) => r.withdrawalsMinor),
      col.amount(titles('Transfers', '资金调拨', 'Điều chuyển'), (r) => r.transfersMinor),
      col.amount(titles('Freezes', '冻结', 'Phong tỏa'), (r) => r.freezesMinor),
      col.amount(titles('Closing balance', '期末余额', 'Số dư cuối ngày'), (r) => r.closingMinor),
      {
        title: LIVE.live,
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

const LIVE = { live: titles('Live', '实时', 'Trực tiếp') };
