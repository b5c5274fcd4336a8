import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApproveTopUpBodySchema,
  CreateTopUpFieldsSchema,
  OpsTopUpListQuerySchema,
  TopUpOptionsResponseSchema,
  TopUpResponseSchema,
  RejectTopUpBodySchema,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { authOf, type Guards } from '../../plugins/auth-context.ts';
import { type OperatorGuard, operatorContextOf } from '../ops/index.ts';
import { parseInput } from '../security/index.ts';
import type { TopUpsService } from './top-ups.service.ts';

const NoParams = z.object({ no: z.string() });
/** Our numbers only: anything else is a top-up that does not exist. */
const ourNumber = (value: string) => {
  if (!/^R[0-9]{8,40}$/.test(value)) throw notFound('The top-up was not found.');
  return value;
};

/** A stored image, served as itself and nothing else: its type, never sniffed, never cached by others. */
function sendImage(
  reply: FastifyReply,
  name: string,
  file: Awaited<ReturnType<TopUpsService['screenshotOf']>>,
) {
  return reply
    .header('content-type', file.type)
    .header('content-length', String(file.size))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename="${name}.${file.type === 'image/png' ? 'png' : 'jpg'}"`)
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(file.stream);
}

/** Top-up and top-up history in the console (DESIGN section 5). */
export function topUpsConsoleRoutes(
  app: FastifyInstance,
  { topUps, guards }: { topUps: TopUpsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = guards.requirePerm('topup:view');
  const create = guards.requirePerm('topup:create');

  r.get(
    '/api/merchant/recharge-options',
    { onRequest: create, schema: { response: { 200: TopUpOptionsResponseSchema } } },
    async (request) => ({ data: topUps.options(authOf(request).merchant) }),
  );

  r.post(
    '/api/merchant/recharges',
    { onRequest: create, schema: { response: { 201: TopUpResponseSchema } } },
    async (request, reply) => {
      const { user, merchant } = authOf(request);
      const input = (request.body ?? {}) as Record<string, unknown>;
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      const fields = parseInput(CreateTopUpFieldsSchema, {
        amount: text(input.amount),
        currency: text(input.currency),
        network: text(input.network),
      });
      const data = await topUps.create(merchant, user.id, fields, input.screenshot);
      return reply.status(201).send({ data });
    },
  );

  r.get(
    '/api/merchant/recharges/:no/screenshot',
    { onRequest: view, schema: { params: NoParams } },
    async (request, reply) => {
      const no = ourNumber(request.params.no);
      return sendImage(reply, no, await topUps.screenshotOf(authOf(request).merchant.id, no));
    },
  );
}

/**
 * The operator's review of top-ups (DESIGN 10), behind the operator token like the rest of /ops/v1: showing
 * one (its screenshot is the merchant's data) needs `read`, deciding needs `review`.
 */
export function topUpsOpsRoutes(
  app: FastifyInstance,
  { topUps, operator }: { topUps: TopUpsService; operator: OperatorGuard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/ops/v1/topups',
    { ...operator('read'), schema: { querystring: OpsTopUpListQuerySchema } },
    async (request) => ({
      data: await topUps.listForOps(request.query),
    }),
  );

  r.get('/ops/v1/topups/:no', { ...operator('read'), schema: { params: NoParams } }, async (request) => ({
    data: await topUps.showForOps(ourNumber(request.params.no)),
  }));

  r.get(
    '/ops/v1/topups/:no/screenshot',
    { ...operator('read'), schema: { params: NoParams } },
    async (request, reply) => {
      const no = ourNumber(request.params.no);
      return sendImage(reply, no, await topUps.screenshotForOps(no));
    },
  );

  r.post(
    '/ops/v1/topups/approve',
    { ...operator('review'), schema: { body: ApproveTopUpBodySchema } },
    async (request, reply) => {
      const result = await topUps.approve(request.body, operatorContextOf(request, request.body.reason));
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.replayed ? 200 : 201).send({ data: result.data });
    },
  );

  r.post(
    '/ops/v1/topups/reject',
    { ...operator('review'), schema: { body: RejectTopUpBodySchema } },
    async (request, reply) => {
      const result = await topUps.reject(request.body, operatorContextOf(request, request.body.reason));
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.replayed ? 200 : 201).send({ data: result.data });
    },
  );
}
