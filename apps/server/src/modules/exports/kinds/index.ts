import type { ExportKind } from '@paydesk/shared/exports/exports.schemas.ts';
import { collectionsList, settlementsList } from '../../collections/index.ts';
import { fundFlowsList } from '../../ledger/index.ts';
import { payoutsList } from '../../payouts/index.ts';
import { refundsList } from '../../refunds/index.ts';
import { topUpsList } from '../../top-ups/index.ts';
import type { DailyReportsService } from '../../reports/index.ts';
import { withdrawalsList } from '../../withdrawals/index.ts';
import { dailyReportsExport } from './daily-reports.ts';
import type { ExportKindHandler } from './export-kind.ts';
import { listExportKind } from './list-export-kind.ts';

/**
 * Every list that exports: a console list's kind is made from its declaration (listExportKind; a new one:
 * a line here and its name in EXPORT_KINDS); a list built by a service rather than read from a table
 * (daily reports) has a file of its own and gets that service.
 */
export const exportKindHandlers = ({
  dailyReports,
}: {
  dailyReports: DailyReportsService;
}): Record<ExportKind, ExportKindHandler> => ({
  collections: listExportKind(collectionsList),
  settlements: listExportKind(settlementsList),
  payouts: listExportKind(payoutsList),
  recharges: listExportKind(topUpsList),
  withdrawals: listExportKind(withdrawalsList),
  fund_flows: listExportKind(fundFlowsList),
  daily_reports: dailyReportsExport(dailyReports),
  refunds: listExportKind(refundsList),
});
