import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { FundFlowType } from '@paydesk/shared/funds/funds.schemas.ts';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { dailyReports, merchants } from '../../db/schema/index.ts';

export type DailyReportRow = typeof dailyReports.$inferSelect;

/** A local day of the merchant and the instants it spans, [start, end). */
export type DayWindow = { day: string; start: Date; end: Date };

/** A day's figures, all in minor units; every fund flow type lands in exactly one money column. */
export type DayFigures = Omit<DailyReportRow, 'merchantId' | 'timezone' | 'computedAt'>;

type MoneyColumn =
  | 'collectionNetMinor'
  | 'payoutDeductedMinor'
  | 'refundsMinor'
  | 'collectionRefundsMinor'
  | 'topUpsMinor'
  | 'withdrawalsMinor'
  | 'transfersMinor'
  | 'freezesMinor';

/**
 * Where each fund flow type of the ledger goes: a Record, so a new type does not compile until it has a
 * column, and the columns always add up to the day's entries (opening + entries = closing).
 */
export const COLUMN_OF_TYPE: Record<FundFlowType, MoneyColumn> = {
  collection_settlement: 'collectionNetMinor',
  payout_deduction: 'payoutDeductedMinor',
  payout_refund: 'refundsMinor',
  recharge: 'topUpsMinor',
  withdrawal: 'withdrawalsMinor',
  withdrawal_rejected: 'withdrawalsMinor',
  transfer_in: 'transfersMinor',
  transfer_out: 'transfersMinor',
  funds_frozen: 'freezesMinor',
  funds_unfrozen: 'freezesMinor',
  refund: 'collectionRefundsMinor',
  refund_reversal: 'collectionRefundsMinor',
};

export const MONEY_COLUMNS: readonly MoneyColumn[] = [...new Set(Object.values(COLUMN_OF_TYPE))];

const typesOf = (column: MoneyColumn) =>
  sql.join(
    Object.entries(COLUMN_OF_TYPE)
      .filter(([, c]) => c === column)
      .map(([type]) => sql`${type}`),
    sql`, `,
  );

type RawDay = Record<string, unknown>;

export const dailyReportsRepository = {
  /**
   * Each day's figures straight from the fund flows (the postings on the merchant's available account):
   * the balance before the day began, then the day's entries summed per column. The collection fee is the
   * fee revenue posting of each settlement entry; the payout fee is the one stored on the payout.
   */
  compute: async (db: DbOrTx, merchantId: number, windows: DayWindow[]): Promise<DayFigures[]> => {
    if (windows.length === 0) return [];
    const days = sql.join(
      windows.map(
        (w) =>
          sql`(${w.day}::date, ${w.start.toISOString()}::timestamptz, ${w.end.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const sums = sql.join(
      MONEY_COLUMNS.map(
        (column) =>
          sql`coalesce(sum(f.amount_minor) filter (where f.type in (${typesOf(column)})), 0)::text as ${sql.identifier(column)}`,
      ),
      sql`, `,
    );
    const rows = await queryRows<RawDay>(
      db,
      sql`with days(day, starts_at, ends_at) as (values ${days})
          select d.day::text as day, d.starts_at, d.ends_at,
                 coalesce((select o.available_after_minor from fund_flows o
                           where o.merchant_id = ${merchantId} and o.created_at < d.starts_at
                           order by o.created_at desc nulls last, o.id desc nulls last limit 1), 0)::text as opening,
                 count(f.id)::int as entries,
                 ${sums},
                 coalesce(sum(fee.amount), 0)::text as collection_fee,
                 coalesce(sum(s.order_count), 0)::int as collection_count,
                 count(f.id) filter (where f.type = 'payout_deduction')::int as payout_count,
                 coalesce(sum(p.fee_minor) filter (where f.type = 'payout_deduction'), 0)::text as payout_fee
          from days d
          left join fund_flows f
            on f.merchant_id = ${merchantId} and f.created_at >= d.starts_at and f.created_at < d.ends_at
          left join settlements s on f.type = 'collection_settlement' and s.entry_id = f.entry_id
          left join payouts p on f.type = 'payout_deduction' and f.ref_type = 'payout' and p.merchant_id = f.merchant_id
            and p.id = (case when f.ref_id ~ '^[0-9]{1,18}$' then f.ref_id::bigint end)
          left join lateral (
            select sum(fp.amount_minor) as amount from postings fp
            join ledger_accounts fa on fa.id = fp.account_id and fa.kind = 'fee_revenue'
            where fp.entry_id = f.entry_id
          ) fee on f.type = 'collection_settlement'
          group by d.day, d.starts_at, d.ends_at
          order by d.day`,
    );
    const windowOf = new Map(windows.map((w) => [w.day, w]));
    return rows.map((row) => {
      const day = String(row.day);
      const window = windowOf.get(day)!;
      const money = Object.fromEntries(
        MONEY_COLUMNS.map((column) => [column, BigInt(String(row[column]))]),
      ) as Record<MoneyColumn, bigint>;
      const openingMinor = BigInt(String(row.opening));
      const closingMinor = MONEY_COLUMNS.reduce((sum, column) => sum + money[column], openingMinor);
      return {
        day,
        startsAt: window.start,
        endsAt: window.end,
        openingMinor,
        closingMinor,
        ...money,
        collectionFeeMinor: BigInt(String(row.collection_fee)),
        collectionCount: Number(row.collection_count),
        payoutFeeMinor: BigInt(String(row.payout_fee)),
        payoutCount: Number(row.payout_count),
        entries: Number(row.entries),
      };
    });
  },

  /** The kept days of a merchant in a zone, within [from, to] (local dates). */
  findKept: (db: DbOrTx, merchantId: number, timezone: string, from: string, to: string) =>
    db
      .select()
      .from(dailyReports)
      .where(
        and(
          eq(dailyReports.merchantId, merchantId),
          eq(dailyReports.timezone, timezone),
          gte(dailyReports.day, from),
          lte(dailyReports.day, to),
        ),
      ),

  /** Keeps finished days; a day another reader kept first stays as it is (the same figures). */
  keep: async (db: DbOrTx, merchantId: number, timezone: string, days: DayFigures[], at: Date) => {
    if (days.length === 0) return;
    await db
      .insert(dailyReports)
      .values(days.map((d) => ({ ...d, merchantId, timezone, computedAt: at })))
      .onConflictDoNothing();
  },

  /** Every merchant with its zone and its first day, for the job that keeps yesterday. */
  merchants: (db: DbOrTx) =>
    db
      .select({ id: merchants.id, timezone: merchants.timezone, createdAt: merchants.createdAt })
      .from(merchants),
};
