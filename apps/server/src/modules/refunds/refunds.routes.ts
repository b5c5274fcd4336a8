import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConsoleRefundBodySchema,
  CreateRefundBodySchema,
  GatewayRefundResponseSchema,
  RefundDetailResponseSchema,
  RefundLookupQuerySchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authOf, clientOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import { GATEWAY_ROUTE_CONFIG, type GatewayScope, gatewayMerchantOf } from '../gateway/index.ts';
import {
  answerAction,
  CompleteRefundBodySchema,
  type OperatorGuard,
  operatorContextOf,
  OpsRefundListQuerySchema,
} from '../ops/index.ts';
import { idempotencyOf, sendStoredAnswer } from '../payouts/index.ts';
import { parseInput, stepUpInputOf, verifyStepUp } from '../security/index.ts';
import type { RefundRow } from './refunds.repository.ts';
import type { RefundsService } from './refunds.service.ts';

const TradeNoParams = z.object({ trade_no: z.string() });
const RefundNoParams = z.object({ refund_no: z.string() });
// Anything but a number of ours reads as "not found", never as a validation error that confirms a format.
const ourNumber = (value: string, prefix: 'C' | 'R', what: string) => {
  if (!new RegExp(`^${prefix}[0-9]{8,40}$`).test(value)) throw notFound(`The ${what} was not found.`);
  return value;
};

/** Refunds in the console (DESIGN 14): the Refund action of a collection and a refund's detail. */
export function refundsConsoleRoutes(
  app: FastifyInstance,
  { refunds, guards, db, appKey }: { refunds: RefundsService; guards: Guards; db: Db; appKey: Buffer },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/merchant/collections/:trade_no/refunds',
    {
      onRequest: guards.requirePerm('refund:create'),
      schema: { params: TradeNoParams, response: { 201: RefundDetailResponseSchema } },
    },
    async (request, reply) => {
      const { user, merchant } = authOf(request);
      const tradeNo = ourNumber(request.params.trade_no, 'C', 'order');
      // The form is checked before the step-up: a typo costs no code. The code is spent by the step-up.
      const body = parseInput(
        ConsoleRefundBodySchema.omit({ payment_password: true, code: true }),
        request.body,
      );
      const { row } = await refunds.create({
        source: 'console',
        merchant,
        tradeNo,
        input: { amount: body.amount, reason: body.reason ?? null, outRefundNo: body.out_refund_no },
        userId: user.id,
        stepUp: () =>
          verifyStepUp(db, user, stepUpInputOf(request.body), { appKey, client: clientOf(request) }),
      });
      return reply.status(201).send({ data: await refunds.detail(merchant.id, row.refundNo) });
    },
  );

  r.get(
    '/api/merchant/refunds/:refund_no',
    {
      config: PURE_READ,
      onRequest: guards.requirePerm('collection:view'),
      schema: { params: RefundNoParams, response: { 200: RefundDetailResponseSchema } },
    },
    async (request) => ({
      data: await refunds.detail(
        authOf(request).merchant.id,
        ourNumber(request.params.refund_no, 'R', 'refund'),
      ),
    }),
  );
}

/** The gateway's refund routes (DESIGN 14), with Idempotency-Key as payouts. */
export function refundsGatewayRoutes(
  { scope, requireSignature, requireSignatureDeferringClaim }: GatewayScope,
  { refunds }: { refunds: RefundsService },
) {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const options = { preHandler: requireSignature, config: GATEWAY_ROUTE_CONFIG };

  r.post(
    '/gateway/v1/collections/:trade_no/refunds',
    {
      // The refund's one statement claims the call's nonce too (DeferredClaim).
      preHandler: requireSignatureDeferringClaim,
      config: GATEWAY_ROUTE_CONFIG,
      schema: {
        summary: 'Refund a paid collection, fully or partly',
        description:
          'Takes the amount from your available balance at once (422 insufficient_funds when it cannot; nothing is written) and answers 201 with the refund in processing; refund.succeeded or refund.failed follows. Several refunds of one order may not pass its amount (422 refund_exceeds_amount); an order that is not paid answers 409 invalid_state; a repeated out_refund_no answers 409 out_refund_no_taken with the existing refund_no. The order fee is not returned. Send an Idempotency-Key header to retry safely, as for payouts.',
        tags: ['Refunds'],
        params: TradeNoParams,
        body: CreateRefundBodySchema,
        response: { 201: GatewayRefundResponseSchema },
      },
    },
    async (request, reply) => {
      const merchant = gatewayMerchantOf(request);
      const idempotency = await idempotencyOf(request, (row: RefundRow) => ({
        status: 201,
        body: { data: refunds.gatewayView(row, merchant.livemode) },
      }));
      const { out_refund_no, amount, reason } = request.body;
      const answer = await refunds.create({
        source: 'gateway',
        merchant,
        tradeNo: request.params.trade_no,
        input: { outRefundNo: out_refund_no, amount, reason: reason ?? null },
        idempotency,
        claim: request.gatewayClaim,
      });
      if (!answer.replayed)
        return reply.status(201).send({ data: refunds.gatewayView(answer.row, merchant.livemode) });
      return sendStoredAnswer(reply as FastifyReply, answer);
    },
  );

  r.get(
    '/gateway/v1/refunds/:refund_no',
    {
      ...options,
      schema: {
        summary: 'Get a refund by our refund_no',
        tags: ['Refunds'],
        params: RefundNoParams,
        response: { 200: GatewayRefundResponseSchema },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      const row = await refunds.findForMerchant(merchant.id, { refundNo: request.params.refund_no });
      return { data: refunds.gatewayView(row, merchant.livemode) };
    },
  );

  r.get(
    '/gateway/v1/refunds',
    {
      ...options,
      schema: {
        summary: 'Get a refund by your out_refund_no',
        tags: ['Refunds'],
        querystring: RefundLookupQuerySchema,
        response: { 200: GatewayRefundResponseSchema },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      const row = await refunds.findForMerchant(merchant.id, { outRefundNo: request.query.out_refund_no });
      return { data: refunds.gatewayView(row, merchant.livemode) };
    },
  );
}

/**
 * The operator's queue of refunds paid back by hand (a bank transfer's payer, DESIGN 14), behind the
 * operator token like the rest of /ops/v1: listing needs `read`, finishing one moves money so `funds`.
 */
export function refundsOpsRoutes(
  app: FastifyInstance,
  { refunds, operator }: { refunds: RefundsService; operator: OperatorGuard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/ops/v1/refunds',
    { ...operator('read'), schema: { querystring: OpsRefundListQuerySchema } },
    async (request) => ({ data: await refunds.listForOps(request.query) }),
  );
  r.post(
    '/ops/v1/refunds/complete',
    { ...operator('funds'), schema: { body: CompleteRefundBodySchema } },
    async (request, reply) =>
      answerAction(
        reply,
        await refunds.completeByOperator(request.body, operatorContextOf(request, request.body.reason)),
      ),
  );
}
