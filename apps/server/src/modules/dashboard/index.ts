import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasPerm } from '@paydesk/shared';
import { DashboardResponseSchema } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import type { AppContext } from '../../context.ts';
import { resolveTimeZone } from '../../lib/timezone.ts';
import { authOf } from '../../plugins/auth-context.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { PayoutsService } from '../payouts/index.ts';

/**
 * The Dashboard's figures (DESIGN section 5): today's collection and payout figures in the user's time
 * zone, each only for a user who may see that list.
 */
export function registerDashboardModule(
  app: FastifyInstance,
  { guards, now }: AppContext,
  { collections, payouts }: { collections: CollectionsService; payouts: PayoutsService },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/dashboard',
    {
      preHandler: guards.requirePerm('dashboard:view'),
      schema: { response: { 200: DashboardResponseSchema } },
    },
    async (request) => {
      const { user, merchant, perms } = authOf(request);
      const viewer = {
        merchantId: merchant.id,
        currency: merchant.currency,
        timeZone: resolveTimeZone(user.timezone, request.headers['x-timezone']),
      };
      const today = localDate(now(), viewer.timeZone);
      const { start, end } = dayRange(today, viewer.timeZone);
      const day = { from: start, to: end };
      return {
        data: {
          today,
          collection: hasPerm(perms, 'collection:view') ? await collections.today(viewer, day) : null,
          payout: hasPerm(perms, 'payout:view') ? await payouts.today(viewer, day) : null,
        },
      };
    },
  );
}
