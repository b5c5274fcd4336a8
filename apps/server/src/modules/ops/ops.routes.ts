import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ValidationError } from '../../lib/errors.ts';
import { operatorOf } from './operator-auth.ts';
import {
  CloseChannelBodySchema,
  RunSettlementBodySchema,
  SandboxCompleteBodySchema,
  ListChannelsQuerySchema,
  OpenChannelBodySchema,
  CreateMerchantBodySchema,
  CreateOperatorTokenBodySchema,
  RevokeOperatorTokenBodySchema,
  CreateUserBodySchema,
  IdempotencyKeyHeaderSchema,
  MoveFundsBodySchema,
  UnfreezeBodySchema,
  VerifyQuerySchema,
} from './ops.schemas.ts';
import type { ActionContext, ActionResult, OpsService } from './ops.service.ts';

type Deps = { ops: OpsService; requireOperator: preHandlerAsyncHookHandler };

/** The operator, the reason and the client's Idempotency-Key of a change. */
function contextOf(request: FastifyRequest, reason: string): ActionContext {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return { operator: operatorOf(request), reason };
  const parsed = IdempotencyKeyHeaderSchema.safeParse(header);
  if (!parsed.success) throw ValidationError.field('idempotency_key', parsed.error.issues[0].message);
  return { operator: operatorOf(request), reason, idempotencyKey: parsed.data };
}

/** 201 for a change made now; 200 with Idempotent-Replayed for a repeat of one made before. */
function answer<T>(reply: FastifyReply, result: ActionResult<T>) {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.replayed ? 200 : 201).send({ data: result.data });
}

export function opsRoutes(app: FastifyInstance, { ops, requireOperator }: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { preHandler: requireOperator };

  r.get('/ops/v1/merchants', guard, async () => ({ data: await ops.listMerchants() }));

  r.post(
    '/ops/v1/merchants',
    { ...guard, schema: { body: CreateMerchantBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.createMerchant(request.body, contextOf(request, request.body.reason))),
  );

  r.post('/ops/v1/users', { ...guard, schema: { body: CreateUserBodySchema } }, async (request, reply) =>
    answer(reply, await ops.createUser(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/transfer-in',
    { ...guard, schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.transferIn(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/transfer-out',
    { ...guard, schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.transferOut(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/freeze',
    { ...guard, schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.freeze(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/unfreeze',
    { ...guard, schema: { body: UnfreezeBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.unfreeze(request.body, contextOf(request, request.body.reason))),
  );

  r.get(
    '/ops/v1/channels',
    { ...guard, schema: { querystring: ListChannelsQuerySchema } },
    async (request) => ({ data: await ops.listChannels(request.query.merchant) }),
  );

  r.post(
    '/ops/v1/channels/open',
    { ...guard, schema: { body: OpenChannelBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.openChannel(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/channels/close',
    { ...guard, schema: { body: CloseChannelBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.closeChannel(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/settlements/run',
    { ...guard, schema: { body: RunSettlementBodySchema } },
    async (request, reply) => answer(reply, await ops.runSettlement(contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/sandbox/complete',
    { ...guard, schema: { body: SandboxCompleteBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.completeSandbox(request.body, contextOf(request, request.body.reason))),
  );

  r.get(
    '/ops/v1/ledger/verify',
    { ...guard, schema: { querystring: VerifyQuerySchema } },
    async (request) => ({
      data: await ops.verify(request.query.merchant),
    }),
  );

  r.get('/ops/v1/ledger/trial-balance', guard, async () => ({ data: await ops.trialBalance() }));

  r.get('/ops/v1/operator-tokens', guard, async () => ({ data: await ops.listTokens() }));
  r.post(
    '/ops/v1/operator-tokens',
    { ...guard, schema: { body: CreateOperatorTokenBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.createToken(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/operator-tokens/revoke',
    { ...guard, schema: { body: RevokeOperatorTokenBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.revokeToken(request.body, contextOf(request, request.body.reason))),
  );
}
