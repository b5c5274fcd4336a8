import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes, randomInt } from 'node:crypto';
import type { Currency } from '@paydesk/shared';
import { ValidationError } from '../../lib/errors.ts';
import { signRequest } from '../../lib/gateway-signature.ts';
import { DEMO_PAYEES } from '../payouts/index.ts';
import { type OperatorGuard, operatorOf } from './operator-auth.ts';
import {
  CloseChannelBodySchema,
  RouteChannelBodySchema,
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
  TrialBalanceQuerySchema,
  ListMerchantsQuerySchema,
  VerifyQuerySchema,
  ListWithdrawalsQuerySchema,
  PayWithdrawalBodySchema,
  RejectWithdrawalBodySchema,
  WithdrawalDecisionBodySchema,
} from './ops.schemas.ts';
import { answerAction } from './operator-action.ts';
import type { ActionContext, ActionResult, DemoSigning, OpsService } from './ops.service.ts';

type Deps = {
  ops: OpsService;
  operator: OperatorGuard;
  /** config.sandboxEnabled: off (production without --demo), the demo traffic routes do not exist. */
  sandboxEnabled: boolean;
};

/** The operator, the reason and the client's Idempotency-Key of a change. */
function contextOf(request: FastifyRequest, reason: string): ActionContext {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return { operator: operatorOf(request), reason };
  const parsed = IdempotencyKeyHeaderSchema.safeParse(header);
  if (!parsed.success) throw ValidationError.field('idempotency_key', parsed.error.issues[0].message);
  return { operator: operatorOf(request), reason, idempotencyKey: parsed.data };
}

const answer = answerAction;

// Each route names the scope its token needs (DESIGN 9): read lists and shows, review decides on top-ups
// and withdrawals, funds moves money, admin manages merchants, users, channels and tokens.
export function opsRoutes(app: FastifyInstance, { ops, operator, sandboxEnabled }: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/ops/v1/merchants',
    { ...operator('read'), schema: { querystring: ListMerchantsQuerySchema } },
    async (request) => ({ data: await ops.listMerchants(request.query.mode) }),
  );

  r.post(
    '/ops/v1/merchants',
    { ...operator('admin'), schema: { body: CreateMerchantBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.createMerchant(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/users',
    { ...operator('admin'), schema: { body: CreateUserBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.createUser(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/transfer-in',
    { ...operator('funds'), schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.transferIn(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/transfer-out',
    { ...operator('funds'), schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.transferOut(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/freeze',
    { ...operator('funds'), schema: { body: MoveFundsBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.freeze(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/funds/unfreeze',
    { ...operator('funds'), schema: { body: UnfreezeBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.unfreeze(request.body, contextOf(request, request.body.reason))),
  );

  r.get(
    '/ops/v1/channels',
    { ...operator('read'), schema: { querystring: ListChannelsQuerySchema } },
    async (request) => ({ data: await ops.listChannels(request.query.merchant, request.query.mode) }),
  );

  r.post(
    '/ops/v1/channels/open',
    { ...operator('admin'), schema: { body: OpenChannelBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.openChannel(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/channels/close',
    { ...operator('admin'), schema: { body: CloseChannelBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.closeChannel(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/channels/route',
    { ...operator('admin'), schema: { body: RouteChannelBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.routeChannel(request.body, contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/settlements/run',
    { ...operator('funds'), schema: { body: RunSettlementBodySchema } },
    async (request, reply) => answer(reply, await ops.runSettlement(contextOf(request, request.body.reason))),
  );

  r.post(
    '/ops/v1/sandbox/complete',
    { ...operator('funds'), schema: { body: SandboxCompleteBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.completeSandbox(request.body, contextOf(request, request.body.reason))),
  );

  // The demo's traffic signs with a merchant's own secret and pays the demo payees: only where the sandbox
  // runs (npm start's demo, development); a production server of real merchants has no such routes.
  if (sandboxEnabled) demoRoutes();
  function demoRoutes() {
    // Demo traffic (ops demo:traffic): one order per call, made through the real signed gateway route with
    // the merchant's own key, from 127.0.0.1 (the demo merchants whitelist this machine). The service records
    // each call as an operator action before the merchant's secret signs it.
    async function signedGatewayPost(signing: DemoSigning, path: string, body: object) {
      const raw = JSON.stringify(body);
      const { timestamp } = signing;
      const nonce = randomBytes(16).toString('hex');
      const response = await app.inject({
        method: 'POST',
        url: path,
        remoteAddress: '127.0.0.1',
        headers: {
          'content-type': 'application/json',
          'x-merchant-no': signing.merchantNo,
          'x-access-key': signing.accessKey,
          'x-timestamp': String(timestamp),
          'x-nonce': nonce,
          'x-signature': signRequest(signing.secret, {
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
        gateway_status: response.statusCode,
        trade_no: answer.data?.trade_no ?? null,
        code: answer.code ?? null,
        message: answer.message ?? null,
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

    /** 200 with the gateway's answer (whatever it was); Idempotent-Replayed for a repeat. */
    function demoAnswer(reply: FastifyReply, result: ActionResult<unknown>) {
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return { data: result.data };
    }

    r.post(
      '/ops/v1/demo/collections',
      { ...operator('funds'), schema: { body: DemoCollectionBodySchema } },
      async (request, reply) => {
        const { body } = request;
        const result = await ops.placeDemoOrder(
          'collection',
          body,
          contextOf(request, body.reason),
          (signing) =>
            signedGatewayPost(signing, '/gateway/v1/collections', {
              out_trade_no: trafficNo(),
              amount: demoAmount(signing.currency, 2000),
              ...(body.routed ? {} : { channel: body.channel }),
            }),
        );
        return demoAnswer(reply, result);
      },
    );

    // Payouts: one account in twenty ends in 0000, which the sandbox fails.
    r.post(
      '/ops/v1/demo/payouts',
      { ...operator('funds'), schema: { body: DemoPayoutBodySchema } },
      async (request, reply) => {
        const { body } = request;
        const result = await ops.placeDemoOrder(
          'payout',
          body,
          contextOf(request, body.reason),
          (signing) => {
            const payee = DEMO_PAYEES[signing.currency as 'CNY'] ?? DEMO_PAYEES.CNY;
            return signedGatewayPost(signing, '/gateway/v1/payouts', {
              ...payee,
              account_no: randomInt(0, 20) === 0 ? `${payee.account_no.slice(0, -4)}0000` : payee.account_no,
              out_trade_no: trafficNo(),
              amount: demoAmount(signing.currency, 200),
              channel: body.channel,
            });
          },
        );
        return demoAnswer(reply, result);
      },
    );
  }

  r.get(
    '/ops/v1/ledger/verify',
    { ...operator('read'), schema: { querystring: VerifyQuerySchema } },
    async (request) => ({
      data: await ops.verify(request.query.merchant, request.query.mode),
    }),
  );

  r.get(
    '/ops/v1/ledger/trial-balance',
    { ...operator('read'), schema: { querystring: TrialBalanceQuerySchema } },
    async (request) => ({ data: await ops.trialBalance(request.query.mode) }),
  );

  r.get('/ops/v1/operator-tokens', operator('admin'), async () => ({ data: await ops.listTokens() }));
  r.post(
    '/ops/v1/operator-tokens',
    { ...operator('admin'), schema: { body: CreateOperatorTokenBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.createToken(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/operator-tokens/revoke',
    { ...operator('admin'), schema: { body: RevokeOperatorTokenBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.revokeToken(request.body, contextOf(request, request.body.reason))),
  );

  // ---- Withdrawals (DESIGN section 10: withdrawal:list|approve|pay|reject)

  r.get(
    '/ops/v1/withdrawals',
    { ...operator('read'), schema: { querystring: ListWithdrawalsQuerySchema } },
    async (request) => ({ data: await ops.listWithdrawals(request.query) }),
  );
  r.post(
    '/ops/v1/withdrawals/approve',
    { ...operator('review'), schema: { body: WithdrawalDecisionBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.approveWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/withdrawals/pay',
    { ...operator('review'), schema: { body: PayWithdrawalBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.payWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
  r.post(
    '/ops/v1/withdrawals/reject',
    { ...operator('review'), schema: { body: RejectWithdrawalBodySchema } },
    async (request, reply) =>
      answer(reply, await ops.rejectWithdrawal(request.body, contextOf(request, request.body.reason))),
  );
}
