import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Dashboard, DashboardResponseSchema } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { Dashboard };

/** The Dashboard refreshes itself this often while it is open (and the tab is visible). */
export const DASHBOARD_REFRESH_MS = 30_000;

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'dashboard'],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/dashboard', { signal, schema: DashboardResponseSchema }).then((r) => r.data),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** GET /api/merchant/dashboard: today's figures and the last 30 days' series in the user's time zone. */
export const useDashboard = () =>
  // The figures on screen stay until the new ones arrive: no skeleton between two refreshes.
  useQuery({ ...dashboardQueryOptions(), placeholderData: keepPreviousData });
