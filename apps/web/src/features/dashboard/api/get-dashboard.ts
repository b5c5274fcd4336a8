import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Dashboard, DashboardResponseSchema } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { Dashboard };

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'dashboard'],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/dashboard', { signal, schema: DashboardResponseSchema }).then((r) => r.data),
  });

/** GET /api/merchant/dashboard: today's figures in the user's time zone. */
export const useDashboard = () => useQuery(dashboardQueryOptions());
