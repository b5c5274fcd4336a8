import { DailyReportListResponseSchema } from '@paydesk/shared/reports/reports.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/** GET /api/merchant/daily-reports: one row per day (the merchant's zone), newest first, with the range's totals. */
export const dailyReportsApi = listApi('daily-reports', {
  schema: DailyReportListResponseSchema,
});
