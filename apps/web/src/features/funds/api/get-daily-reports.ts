import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type DailyReportListQuery,
  type DailyReportListResponse,
  DailyReportListResponseSchema,
} from '@paydesk/shared/reports/reports.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { DailyReportListQuery, DailyReportListResponse };

export const dailyReportsQueryKey = ['merchant', 'daily-reports'] as const;

/** GET /api/merchant/daily-reports: one row per day (the merchant's zone), newest first, with the range's totals. */
export const dailyReportsQueryOptions = (query: DailyReportListQuery) =>
  queryOptions({
    queryKey: [...dailyReportsQueryKey, query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/daily-reports', { signal, query, schema: DailyReportListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useDailyReports = (query: DailyReportListQuery) => useQuery(dailyReportsQueryOptions(query));
