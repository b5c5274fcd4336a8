import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DailyReportListQuerySchema,
  DailyReportListResponseSchema,
} from '@paydesk/shared/reports/reports.schemas.ts';
import { authOf, type Guards } from '../../plugins/auth-context.ts';
import type { DailyReportsService } from './daily-reports.service.ts';

export function reportsRoutes(
  app: FastifyInstance,
  { dailyReports, guards }: { dailyReports: DailyReportsService; guards: Guards },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/daily-reports',
    {
      onRequest: guards.requirePerm('funds:view'),
      schema: { querystring: DailyReportListQuerySchema, response: { 200: DailyReportListResponseSchema } },
    },
    async (request) => {
      const { merchant } = authOf(request);
      return dailyReports.list(
        { id: merchant.id, currency: merchant.currency, timezone: merchant.timezone },
        request.query,
      );
    },
  );
}
