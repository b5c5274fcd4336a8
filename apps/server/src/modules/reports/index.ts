import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createDailyReportsService, type DailyReportsService } from './daily-reports.service.ts';
import { reportsRoutes } from './reports.routes.ts';

export {
  createDailyReportsService,
  KEEP_AFTER_MS,
  type DailyReportsService,
} from './daily-reports.service.ts';
export type { DayFigures } from './daily-reports.repository.ts';

/** Daily reports (DESIGN sections 3 and 5): one row per merchant and local day, built from the ledger. */
export function registerReportsModule(
  app: FastifyInstance,
  { db, guards, now }: AppContext,
): DailyReportsService {
  const dailyReports = createDailyReportsService({ db, now });
  reportsRoutes(app, { dailyReports, guards });
  return dailyReports;
}
