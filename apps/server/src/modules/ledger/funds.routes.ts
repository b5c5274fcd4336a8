import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BalanceResponseSchema,
  FundFlowListQuerySchema,
  FundFlowListResponseSchema,
  FundFlowResponseSchema,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { notFound, ValidationError } from '../../lib/errors.ts';
import { isValidTimeZone } from '../../lib/timezone.ts';
import { authOf, type Guards } from '../../plugins/require-auth.ts';
import type { FundsService, Viewer } from './funds.service.ts';

/** The user's saved time zone, else the browser's X-Timezone, else UTC. */
function viewerOf(request: FastifyRequest): Viewer {
  const { user, merchant } = authOf(request);
  const header = request.headers['x-timezone'];
  const sent = typeof header === 'string' && header.trim() ? header.trim() : undefined;
  if (!user.timezone && sent && !isValidTimeZone(sent)) {
    throw ValidationError.field(
      'timezone',
      'The X-Timezone header must be an IANA time zone or a UTC offset.',
    );
  }
  return { merchantId: merchant.id, currency: merchant.currency, timeZone: user.timezone ?? sent ?? 'UTC' };
}

const IdParamsSchema = z.object({ id: z.string() });

export function fundsRoutes(
  app: FastifyInstance,
  { funds, guards }: { funds: FundsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = guards.requirePerm('funds:view');

  r.get(
    '/api/merchant/balance',
    { preHandler, schema: { response: { 200: BalanceResponseSchema } } },
    async (request) => ({
      data: await funds.balance(viewerOf(request)),
    }),
  );

  r.get(
    '/api/merchant/fund-flows',
    {
      preHandler,
      schema: { querystring: FundFlowListQuerySchema, response: { 200: FundFlowListResponseSchema } },
    },
    async (request) => funds.list(viewerOf(request), request.query),
  );

  r.get(
    '/api/merchant/fund-flows/:id',
    { preHandler, schema: { params: IdParamsSchema, response: { 200: FundFlowResponseSchema } } },
    async (request) => {
      // Anything but an id of ours reads as "not found", never as a validation error that confirms a format.
      if (!/^\d{1,15}$/.test(request.params.id)) throw notFound('The fund flow entry was not found.');
      return { data: await funds.detail(viewerOf(request), Number(request.params.id)) };
    },
  );
}
