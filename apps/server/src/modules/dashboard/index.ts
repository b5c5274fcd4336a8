import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { RefundsService } from '../refunds/index.ts';
import { dashboardRoutes } from './dashboard.routes.ts';
import { createDashboardService } from './dashboard.service.ts';

export { createDashboardService, type DashboardService, lastDays } from './dashboard.service.ts';

/**
 * The Dashboard's figures (DESIGN section 5): today's collection and payout figures and the last 30 days'
 * series in the user's time zone, each only for a user who may see that list.
 */
export function registerDashboardModule(
  app: FastifyInstance,
  { guards, now }: AppContext,
  {
    collections,
    payouts,
    refunds,
  }: { collections: CollectionsService; payouts: PayoutsService; refunds: RefundsService },
): void {
  dashboardRoutes(app, {
    dashboard: createDashboardService({ collections, payouts, refunds, now }),
    guards,
  });
}
