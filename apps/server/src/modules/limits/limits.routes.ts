import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Perm } from '@paydesk/shared';
import {
  type LimitKind,
  MerchantLimitsQuerySchema,
  MerchantLimitsResponseSchema,
} from '@paydesk/shared/limits/limits.schemas.ts';
import { forbidden } from '../../lib/errors.ts';
import { authOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import { answerAction, type OperatorGuard, operatorContextOf } from '../ops/index.ts';
import {
  BlockBodySchema,
  ClearLimitsBodySchema,
  ListBlocksQuerySchema,
  ListLimitsQuerySchema,
  SetLimitsBodySchema,
} from './limits.schemas.ts';
import type { LimitsService } from './limits.service.ts';

/** Who may read the limits of a kind: those who can create such orders (collections: who can see them). */
const PERM_OF_KIND: Record<LimitKind, Perm> = {
  payout: 'payout:create',
  withdrawal: 'withdrawal:create',
  collection: 'collection:view',
};

/** GET /api/merchant/limits?kind=: what the payout and withdrawal forms show before submit. */
export function limitsConsoleRoutes(
  app: FastifyInstance,
  { limits, guards }: { limits: LimitsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/merchant/limits',
    {
      // Signed in; the permission depends on the kind asked for (checked below, before anything is read).
      onRequest: guards.requireAuth,
      config: PURE_READ,
      schema: { querystring: MerchantLimitsQuerySchema, response: { 200: MerchantLimitsResponseSchema } },
    },
    async (request) => {
      const { merchant, perms } = authOf(request);
      if (!perms.includes(PERM_OF_KIND[request.query.kind])) throw forbidden();
      return { data: await limits.forMerchant(merchant.id, request.query.kind) };
    },
  );
}

/** The operator API of limits and block lists (DESIGN 10): changes need the admin scope. */
export function limitsOpsRoutes(
  app: FastifyInstance,
  { limits, operator }: { limits: LimitsService; operator: OperatorGuard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/ops/v1/limits',
    { ...operator('read'), schema: { querystring: ListLimitsQuerySchema } },
    async (request) => ({
      data: await limits.listLimits(request.query.merchant, request.query.mode),
    }),
  );

  r.post(
    '/ops/v1/limits',
    { ...operator('admin'), schema: { body: SetLimitsBodySchema } },
    async (request, reply) =>
      answerAction(
        reply,
        await limits.setLimits(request.body, operatorContextOf(request, request.body.reason)),
      ),
  );

  r.post(
    '/ops/v1/limits/clear',
    { ...operator('admin'), schema: { body: ClearLimitsBodySchema } },
    async (request, reply) =>
      answerAction(
        reply,
        await limits.clearLimits(request.body, operatorContextOf(request, request.body.reason)),
      ),
  );

  r.get(
    '/ops/v1/blocks',
    { ...operator('read'), schema: { querystring: ListBlocksQuerySchema } },
    async (request) => ({
      data: await limits.listBlocks(request.query.merchant, request.query.mode, request.query.list),
    }),
  );

  r.post(
    '/ops/v1/blocks',
    { ...operator('admin'), schema: { body: BlockBodySchema } },
    async (request, reply) =>
      answerAction(
        reply,
        await limits.addBlock(request.body, operatorContextOf(request, request.body.reason)),
      ),
  );

  r.post(
    '/ops/v1/blocks/remove',
    { ...operator('admin'), schema: { body: BlockBodySchema } },
    async (request, reply) =>
      answerAction(
        reply,
        await limits.removeBlock(request.body, operatorContextOf(request, request.body.reason)),
      ),
  );
}
