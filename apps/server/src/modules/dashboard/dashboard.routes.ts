import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DashboardResponseSchema } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { authOf, type Guards, viewerOf } from '../../plugins/auth-context.ts';
import type { DashboardService } from './dashboard.service.ts';

export function dashboardRoutes(
  app: FastifyInstance,
  { dashboard, guards }: { dashboard: DashboardService; guards: Guards },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/dashboard',
    {
      onRequest: guards.requirePerm('dashboard:view'),
      schema: { response: { 200: DashboardResponseSchema } },
    },
    async (request) => {
      return { data: await dashboard.overview(viewerOf(request), authOf(request).perms) };
    },
  );
}
