import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes, randomInt } from 'node:crypto';
import type { Currency } from '@paydesk/shared';
import { ValidationError } from '../../lib/errors.ts';
import { signRequest } from '../../lib/gateway-signature.ts';
import { DEMO_PAYEES } from '../payouts/index.ts';
import { operatorOf } from './operator-auth.ts';
import {
  CloseChannelBodySchema,
  DemoCollectionBodySchema,
  DemoPayoutBodySchema,
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
  ListWithdrawalsQuerySchema,
  PayWithdrawalBodySchema,
  RejectWithdrawalBodySchema,
  WithdrawalDecisionBodySchema,
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

  // Demo traffic (ops demo:traffic): one order per call, made through the real signed gateway route with
  // the merchant's own key, from 127.0.0.1 (the demo merchants whitelist this machine).
  async function signedGatewayPost(merchantNo: string, path: string, body: (currency: Currency) => object) {
    const credentials = await ops.demoCredentials(merchantNo);
    const raw = JSON.stringify(body(credentials.currency));
    const timestamp = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(16).toString('hex');
    const response = await app.inject({
      method: 'POST',
      url: path,
      remoteAddress: '127.0.0.1',
      headers: {
        'content-type': 'application/json',
        'x-merchant-no': credentials.merchantNo,
        'x-access-key': credentials.accessKey,
        'x-timestamp': String(timestamp),
        'x-nonce': nonce,
        'x-signature': signRequest(credentials.secret, {
          method: 'POST',
          pathWithQuery: path,
          timestamp,
          nonce,
          body: raw,
        }),
      },
      payload: raw,
    });
    const answer = response.json() as { data?: { trade_no: string }; code?: string; message?: string };
    return {
      data: {
        gateway_status: response.statusCode,
        trade_no: answer.data?.trade_no ?? null,
        code: answer.code ?? null,
        message: answer.message ?? null,
      },
    };
  }

  /**
   * A demo amount in the merchant's currency: 10 to `top` units (VND: thousands of dong), inside the demo
   * channels' limits (1.00 or 10,000 VND at least).
   */
  const demoAmount = (currency: Currency, top: number) =>
    currency === 'VND'
      ? String(randomInt(10, top) * 1000)
      : `${randomInt(10, top)}.${String(randomInt(0, 100)).padStart(2, '0')}`;
  const trafficNo = () => `TRAFFIC-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

  r.post(
    '/ops/v1/demo/collections',
    { ...guard, schema: { body: DemoCollectionBodySchema } },
    async (request) =>
      signedGatewayPost(request.body.merchant, '/gateway/v1/collections', (currency) => ({
        out_trade_no: trafficNo(),
        amount: demoAmount(currency, 2000),
        channel: request.body.channel,
      })),
  );

  // Payouts: one account in twenty ends in 0000, which the sandbox fails.
  r.post('/ops/v1/demo/payouts', { ...guard, schema: { body: DemoPayoutBodySchema } }, async (request) =>
    signedGatewayPost(request.body.merchant, '/gateway/v1/payouts', (currency) => {
      const payee = DEMO_PAYEES[currency as 'CNY'] ?? DEMO_PAYEES.CNY;
      return {
        ...payee,
        account_no: randomInt(0, 20) === 0 ? `${payee.account_no.slice(0, -4)}0000` : payee.account_no,
        out_trade_no: trafficNo(),
        amount: demoAmount(currency, 200),
        channel: request.body.channel,
      };
    }),
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

  // ---- Withdrawals (DESIGN section 10: withdrawal:list|approve|pay|reject)

  r.get(
    '/ops/v1/withdrawals',
    { ...guard, schema: { querystring: ListWithdrawalsQuerySchema } },
    async (request) => ({ data: await ops.listWithdrawals(request.query) }),
  );
  r.post(
    '/ops/v1/withdrawals/approve',
    { ...guard, schema: { body: WithdrawalDecisionBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.approveWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/withdrawals/pay',
    { ...guard, schema: { body: PayWithdrawalBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.payWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/withdrawals/reject',
    { ...guard, schema: { body: RejectWithdrawalBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.rejectWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
}
