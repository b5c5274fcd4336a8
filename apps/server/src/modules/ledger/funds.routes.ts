import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BalanceResponseSchema, FundFlowResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { type Guards, PURE_READ, viewerOf } from '../../plugins/auth-context.ts';
import type { FundsService } from './funds.service.ts';

const IdParamsSchema = z.object({ id: z.string() });

export function fundsRoutes(
  app: FastifyInstance,
  { funds, guards }: { funds: FundsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = guards.requirePerm('funds:view');

  r.get(
    '/api/merchant/balance',
    { config: PURE_READ, onRequest, schema: { response: { 200: BalanceResponseSchema } } },
    async (request) => ({
      data: await funds.balance(viewerOf(request)),
    }),
  );

  r.get(
    '/api/merchant/fund-flows/:id',
    {
      config: PURE_READ,
      onRequest,
      schema: { params: IdParamsSchema, response: { 200: FundFlowResponseSchema } },
    },
    async (request) => {
      // Anything but an id of ours reads as "not found", never as a validation error that confirms a format.
      if (!/^\d{1,15}$/.test(request.params.id)) throw notFound('The fund flow entry was not found.');
      return { data: await funds.detail(viewerOf(request), Number(request.params.id)) };
    },
  );
}
