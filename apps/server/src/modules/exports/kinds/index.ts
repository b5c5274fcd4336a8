import type { ExportKind } from '@paydesk/shared/exports/exports.schemas.ts';
import type { DailyReportsService } from '../../reports/index.ts';
import { collectionsExport } from './collections.ts';
import { dailyReportsExport } from './daily-reports.ts';
import type { ExportKindHandler } from './export-kind.ts';
import { fundFlowsExport } from './fund-flows.ts';
import { payoutsExport } from './payouts.ts';
import { rechargesExport } from './recharges.ts';
import { settlementsExport } from './settlements.ts';
import { withdrawalsExport } from './withdrawals.ts';

/**
 * Every list that exports (a new one: a file beside these, a line here, its name in EXPORT_KINDS); a list
 * built by a service rather than read from a table (daily reports) gets that service.
 */
export const exportKindHandlers = ({
  dailyReports,
}: {
  dailyReports: DailyReportsService;
}): Record<ExportKind, ExportKindHandler> => ({
  collections: collectionsExport,
  settlements: settlementsExport,
  payouts: payoutsExport,
  recharges: rechargesExport,
  withdrawals: withdrawalsExport,
  fund_flows: fundFlowsExport,
  daily_reports: dailyReportsExport(dailyReports),
});
