import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { exportsRoutes } from './exports.routes.ts';
import type { DailyReportsService } from '../reports/index.ts';
import { createExportsService } from './exports.service.ts';
import { exportKindHandlers } from './kinds/index.ts';

export {
  createExportsService,
  EXPORT_QUEUE,
  type ExportsService,
  exportFileName,
} from './exports.service.ts';
export { createCsvWriter } from './writers/csv-writer.ts';
export { createXlsxWriter, EXCEL_MAX_ROWS } from './writers/xlsx-writer.ts';
export { exportKindHandlers } from './kinds/index.ts';
export { neutralizeFormula } from './cells.ts';
export type { ExportColumn, Titles } from './kinds/export-kind.ts';
export type { SqlExportColumn } from './kinds/sql-export-kind.ts';

/** Offline exports: tasks, their job, their files (DESIGN sections 2, 4, 5, 8 and 9). */
export function registerExportsModule(
  app: FastifyInstance,
  ctx: AppContext,
  services: { dailyReports: DailyReportsService },
  options: { maxRowsPerSheet?: number; maxRunningPerMerchant?: number } = {},
) {
  const exports = createExportsService({
    db: ctx.db,
    jobs: ctx.jobs,
    storage: ctx.storage,
    now: ctx.now,
    kinds: exportKindHandlers(services),
    ...options,
  });
  exportsRoutes(app, { exports, guards: ctx.guards });
  return exports;
}
