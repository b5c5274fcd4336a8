import { type Currency, fromMinor } from '@paydesk/shared';
import {
  DAILY_REPORT_DEFAULT_DAYS,
  DAILY_REPORT_MAX_DAYS,
  type DailyReport,
  type DailyReportListQuery,
  type DailyReportListResponse,
  type DailyReportSums,
} from '@paydesk/shared/reports/reports.schemas.ts';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import type { Db } from '../../db/client.ts';
import { ValidationError } from '../../lib/errors.ts';
import {
  type DailyReportRow,
  type DayFigures,
  type DayWindow,
  dailyReportsRepository as repo,
} from './daily-reports.repository.ts';

/**
 * A day is kept only this long after it ended: an entry written at 23:59:59.9 by a transaction that commits
 * a moment later must be in it, and no transaction lives this long (statement and pool timeouts).
 */
export const KEEP_AFTER_MS = 10 * 60_000;

/** The merchant a report is for: its days are in the merchant's own time zone. */
export type ReportMerchant = { id: number; currency: Currency; timezone: string };

type Deps = { db: Db; now: () => Date };

const shiftDay = (day: string, days: number) => {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
};

/** Every local date from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) days.push(day);
  return days;
}

const ZERO_FIGURES = {
  collectionNetMinor: 0n,
  collectionFeeMinor: 0n,
  collectionCount: 0,
  payoutDeductedMinor: 0n,
  payoutFeeMinor: 0n,
  payoutCount: 0,
  refundsMinor: 0n,
  collectionRefundsMinor: 0n,
  topUpsMinor: 0n,
  withdrawalsMinor: 0n,
  transfersMinor: 0n,
  freezesMinor: 0n,
  entries: 0,
};
type Figures = typeof ZERO_FIGURES;

function presentFigures(f: Figures, currency: Currency) {
  const money = (minor: bigint) => fromMinor(minor, currency);
  return {
    // The entry is the net credited; the report shows the gross and the fee taken from it.
    collection_amount: money(f.collectionNetMinor + f.collectionFeeMinor),
    collection_count: f.collectionCount,
    collection_fee: money(f.collectionFeeMinor),
    // The deduction is amount + fee (negative); the report shows both as positive figures.
    payout_amount: money(-f.payoutDeductedMinor - f.payoutFeeMinor),
    payout_count: f.payoutCount,
    payout_fee: money(f.payoutFeeMinor),
    refunds: money(f.refundsMinor),
    collection_refunds: money(f.collectionRefundsMinor),
    top_ups: money(f.topUpsMinor),
    withdrawals: money(f.withdrawalsMinor),
    transfers: money(f.transfersMinor),
    freezes: money(f.freezesMinor),
    entries: f.entries,
  };
}

function presentDay(row: DayFigures, isFinal: boolean, currency: Currency): DailyReport {
  return {
    date: row.day,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    opening_balance: fromMinor(row.openingMinor, currency),
    closing_balance: fromMinor(row.closingMinor, currency),
    ...presentFigures(row, currency),
    final: isFinal,
    currency,
  };
}

function sumsOf(days: DayFigures[], currency: Currency): DailyReportSums {
  const total: Figures = { ...ZERO_FIGURES };
  for (const day of days) {
    for (const key of Object.keys(ZERO_FIGURES) as (keyof Figures)[]) {
      (total[key] as bigint | number) =
        typeof total[key] === 'bigint'
          ? (total[key] as bigint) + (day[key] as bigint)
          : (total[key] as number) + (day[key] as number);
    }
  }
  const first = days[0];
  const last = days.at(-1);
  return {
    opening_balance: fromMinor(first?.openingMinor ?? 0n, currency),
    closing_balance: fromMinor(last?.closingMinor ?? 0n, currency),
    ...presentFigures(total, currency),
  };
}

export type DailyReportsService = ReturnType<typeof createDailyReportsService>;

export function createDailyReportsService({ db, now }: Deps) {
  const windowOf = (day: string, zone: string): DayWindow => {
    const { start, end } = dayRange(day, zone);
    return { day, start, end };
  };
  const isFinal = (window: DayWindow, at: Date) => window.end.getTime() + KEEP_AFTER_MS <= at.getTime();

  /**
   * The days of [from, to] oldest first: finished days from the kept rows, computed and kept the first
   * time they are read; the others (today, or a day that ended moments ago) computed live.
   */
  async function days(merchant: ReportMerchant, from: string, to: string) {
    const at = now();
    const zone = merchant.timezone;
    const windows = daysBetween(from, to).map((day) => windowOf(day, zone));
    const kept = new Map<string, DayFigures>(
      (await repo.findKept(db, merchant.id, zone, from, to)).map((row: DailyReportRow) => [row.day, row]),
    );
    const missing = windows.filter((w) => !kept.has(w.day));
    const computed = await repo.compute(db, merchant.id, missing);
    const toKeep = computed.filter((row) => isFinal(windowOf(row.day, zone), at));
    await repo.keep(db, merchant.id, zone, toKeep, at);
    const fresh = new Map(computed.map((row) => [row.day, row]));
    return windows.map((w) => {
      const row = kept.get(w.day) ?? fresh.get(w.day)!;
      return { row, isFinal: kept.has(w.day) || isFinal(w, at) };
    });
  }

  /**
   * The dates a query covers (the defaults filled in, nothing after today); reads nothing. A range without
   * an end ends today, and is capped as one with both dates (the schema's check): a start years back
   * would compute and keep a row for every day of them (DESIGN 9). `field` names the start in the 422.
   */
  function rangeOf(
    timezone: string,
    query: Pick<DailyReportListQuery, 'start_date' | 'end_date'>,
    field = 'start_date',
  ) {
    const today = localDate(now(), timezone);
    const end = query.end_date && query.end_date < today ? query.end_date : today;
    const start = query.start_date ?? shiftDay(end, -(DAILY_REPORT_DEFAULT_DAYS - 1));
    if (start < shiftDay(end, -(DAILY_REPORT_MAX_DAYS - 1))) {
      throw ValidationError.field(field, `Choose at most ${DAILY_REPORT_MAX_DAYS} days.`);
    }
    // A range wholly in the future has no days yet.
    return { start, end, days: start <= end ? daysBetween(start, end).length : 0 };
  }

  /** Every day of a range (rangeOf's) with its figures, newest first (the list's order; an export's rows). */
  async function daysOf(
    merchant: ReportMerchant,
    { start, end }: { start: string; end: string },
  ): Promise<{ row: DayFigures; isFinal: boolean }[]> {
    return start <= end ? (await days(merchant, start, end)).reverse() : [];
  }

  /** Newest day first; the sums cover the whole range, not just the page. */
  async function list(
    merchant: ReportMerchant,
    query: DailyReportListQuery,
  ): Promise<DailyReportListResponse> {
    const { start, end } = rangeOf(merchant.timezone, query);
    const newestFirst = await daysOf(merchant, { start, end });
    const range = [...newestFirst].reverse();
    const offset = (query.page - 1) * query.per_page;
    return {
      data: newestFirst
        .slice(offset, offset + query.per_page)
        .map(({ row, isFinal: final }) => presentDay(row, final, merchant.currency)),
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: range.length,
        sums: sumsOf(
          range.map(({ row }) => row),
          merchant.currency,
        ),
        start_date: start,
        end_date: end,
        timezone: merchant.timezone,
      },
    };
  }

  /**
   * The scheduled job: keeps every merchant's finished days up to yesterday (its own zone), the last
   * `lookBackDays` of them, so the morning's report is ready before anyone opens it. Idempotent.
   */
  async function keepFinishedDays(lookBackDays = 2): Promise<number> {
    const at = now();
    let keptDays = 0;
    for (const merchant of await repo.merchants(db)) {
      const yesterday = shiftDay(localDate(at, merchant.timezone), -1);
      const from = shiftDay(yesterday, -(lookBackDays - 1));
      const kept = new Set(
        (await repo.findKept(db, merchant.id, merchant.timezone, from, yesterday)).map((r) => r.day),
      );
      const windows = daysBetween(from, yesterday)
        .filter((day) => !kept.has(day))
        .map((day) => windowOf(day, merchant.timezone))
        .filter((w) => isFinal(w, at));
      const computed = await repo.compute(db, merchant.id, windows);
      await repo.keep(db, merchant.id, merchant.timezone, computed, at);
      keptDays += computed.length;
    }
    return keptDays;
  }

  return { list, rangeOf, daysOf, keepFinishedDays };
}
