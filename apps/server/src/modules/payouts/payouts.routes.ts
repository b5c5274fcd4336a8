import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromMinor, toMinor } from '@paydesk/shared';
import {
  PayoutApprovalSettingsBodySchema,
  PayoutApprovalSettingsResponseSchema,
  RejectPayoutBodySchema,
} from '@paydesk/shared/payouts/payout-approval.schemas.ts';
import {
  OutTradeNoSchema,
  ResendCallbackResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { banksOf } from '@paydesk/shared/payouts/bank-rules.ts';
import {
  ConsolePayoutBodySchema,
  CreatePayoutBodySchema,
  GatewayPayoutSchema,
  PayoutChannelsResponseSchema,
  PayoutDetailResponseSchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import type { Currency } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import { type AppError, notFound, ValidationError } from '../../lib/errors.ts';
import { authOf, clientOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import type { CallbacksService } from '../callbacks/index.ts';
import {
  type AdapterSettings,
  listChannelsOfMerchant,
  ppmToPercent,
  takesNewOrders,
} from '../channels/index.ts';
import { GATEWAY_ROUTE_CONFIG, type GatewayScope, gatewayMerchantOf } from '../gateway/index.ts';
import { createLedger } from '../ledger/index.ts';
import { parseInput, stepUpInputOf, verifyStepUp } from '../security/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import type { PayoutRow } from './payouts.repository.ts';
import type { IdempotencyInput, PayoutsService, StoredAnswer } from './payouts.service.ts';

const TradeNoParams = z.object({ trade_no: z.string() });
const ourNumber = (value: string) => {
  if (!/^P[0-9]{8,40}$/.test(value)) throw notFound('The payout was not found.');
  return value;
};

/** Send money in the console (DESIGN section 5). */
export function payoutsConsoleRoutes(
  app: FastifyInstance,
  {
    payouts,
    callbacks,
    guards,
    db,
    appKey,
    adapterSettings,
  }: {
    payouts: PayoutsService;
    callbacks: CallbacksService;
    guards: Guards;
    db: Db;
    appKey: Buffer;
    adapterSettings: AdapterSettings;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = guards.requirePerm('payout:view');
  const send = guards.requirePerm('payout:create');
  const ledger = createLedger();

  r.get(
    '/api/merchant/payout-channels',
    { onRequest: send, schema: { response: { 200: PayoutChannelsResponseSchema } } },
    async (request) => {
      const { merchant } = authOf(request);
      const open = (await listChannelsOfMerchant(db, merchant.id)).filter(
        (c) => c.kind === 'payout' && c.status === 'open' && takesNewOrders(c, adapterSettings),
      );
      const { availableMinor } = await ledger.balanceOf(db, merchant.id);
      return {
        data: {
          channels: open.map((c) => ({
            code: c.code,
            country: c.country as 'CN',
            currency: merchant.currency,
            fee_rate: ppmToPercent(c.feeRatePpm),
            fixed_fee: fromMinor(c.fixedFeeMinor, merchant.currency),
            min_amount: fromMinor(c.minAmountMinor, merchant.currency),
            max_amount: fromMinor(c.maxAmountMinor, merchant.currency),
            banks: banksOf(c.country as 'CN'),
          })),
          available: fromMinor(availableMinor, merchant.currency),
          currency: merchant.currency,
        },
      };
    },
  );

  r.post(
    '/api/merchant/payouts',
    { onRequest: send, schema: { response: { 201: PayoutDetailResponseSchema } } },
    async (request, reply) => {
      const { user, merchant } = authOf(request);
      // The form is checked before the step-up: a typo costs no code. The code is spent by the step-up.
      const body = parseInput(
        ConsolePayoutBodySchema.omit({ payment_password: true, code: true }),
        request.body,
      );
      const { row } = await payouts.create({
        source: 'console',
        merchant,
        input: { ...body, channel: body.channel, note: body.note ?? null },
        userId: user.id,
        confirmDuplicate: body.confirm_duplicate === true,
        stepUp: () =>
          verifyStepUp(db, user, stepUpInputOf(request.body), { appKey, client: clientOf(request) }),
      });
      return reply.status(201).send({ data: await payouts.detail(merchant.id, row.tradeNo) });
    },
  );

  r.get(
    '/api/merchant/payouts/:trade_no',
    {
      config: PURE_READ,
      onRequest: view,
      schema: { params: TradeNoParams, response: { 200: PayoutDetailResponseSchema } },
    },
    async (request) => ({
      data: await payouts.detail(authOf(request).merchant.id, ourNumber(request.params.trade_no)),
    }),
  );

  // Payout approval (DESIGN 16): the payout of the call's mode; another merchant's or mode's reads as 404.
  const approver = guards.requirePerm('payout:approve');
  const reviewOf = (request: FastifyRequest, tradeNo: string) => {
    const { user, merchant, liveMerchant, mode } = authOf(request);
    return {
      merchant,
      userId: user.id,
      tradeNo: ourNumber(tradeNo),
      record: (tx: Tx, type: 'payout_approved' | 'payout_rejected', row: PayoutRow) =>
        recordSecurityEvent(tx, clientOf(request), {
          type,
          merchantId: liveMerchant.id,
          userId: user.id,
          detail: {
            trade_no: row.tradeNo,
            mode,
            amount: fromMinor(row.amountMinor, merchant.currency),
            ...(row.failureReason ? { reason: row.failureReason } : {}),
          },
        }),
    };
  };

  r.post(
    '/api/merchant/payouts/:trade_no/approve',
    {
      onRequest: approver,
      schema: { params: TradeNoParams, response: { 200: PayoutDetailResponseSchema } },
    },
    async (request) => {
      const { user, merchant } = authOf(request);
      const review = reviewOf(request, request.params.trade_no);
      const row = await payouts.approve({
        ...review,
        // The approver's payment password and Google code (ApprovePayoutBodySchema), as a payout's.
        stepUp: () =>
          verifyStepUp(db, user, stepUpInputOf(request.body), { appKey, client: clientOf(request) }),
      });
      return { data: await payouts.detail(merchant.id, row.tradeNo) };
    },
  );

  r.post(
    '/api/merchant/payouts/:trade_no/reject',
    {
      onRequest: approver,
      schema: { params: TradeNoParams, response: { 200: PayoutDetailResponseSchema } },
    },
    async (request) => {
      const { merchant } = authOf(request);
      const review = reviewOf(request, request.params.trade_no);
      const { reason } = parseInput(RejectPayoutBodySchema, request.body ?? {});
      const row = await payouts.reject({ ...review, reason });
      return { data: await payouts.detail(merchant.id, row.tradeNo) };
    },
  );

  const settingsOf = async (merchant: { id: number; currency: Currency }, mode: Mode) => {
    const saved = await payouts.approvalSettings(merchant.id);
    return {
      mode,
      currency: merchant.currency,
      payout_approval_threshold: fromMinor(saved.consoleThresholdMinor, merchant.currency),
      gateway_payout_approval_threshold: fromMinor(saved.gatewayThresholdMinor, merchant.currency),
      updated_at: saved.updatedAt?.toISOString() ?? null,
    };
  };
  const manageApproval = guards.requirePerm('payout-approval:manage');

  r.get(
    '/api/merchant/payout-approval',
    { onRequest: manageApproval, schema: { response: { 200: PayoutApprovalSettingsResponseSchema } } },
    async (request) => {
      const { merchant, mode } = authOf(request);
      return { data: await settingsOf(merchant, mode) };
    },
  );

  r.put(
    '/api/merchant/payout-approval',
    { onRequest: manageApproval, schema: { response: { 200: PayoutApprovalSettingsResponseSchema } } },
    async (request) => {
      const { user, merchant, liveMerchant, mode } = authOf(request);
      const body = parseInput(PayoutApprovalSettingsBodySchema, request.body ?? {});
      const minorOf = (field: keyof typeof body) => {
        try {
          return toMinor(body[field], merchant.currency);
        } catch (error) {
          throw ValidationError.field(field, (error as Error).message);
        }
      };
      const consoleThresholdMinor = minorOf('payout_approval_threshold');
      const gatewayThresholdMinor = minorOf('gateway_payout_approval_threshold');
      // A money setting: the payment password and a Google code, after the form's own checks.
      await verifyStepUp(db, user, stepUpInputOf(request.body), { appKey, client: clientOf(request) });
      await payouts.saveApprovalSettings({
        merchant,
        userId: user.id,
        consoleThresholdMinor,
        gatewayThresholdMinor,
        record: (tx, detail) =>
          recordSecurityEvent(tx, clientOf(request), {
            type: 'payout_approval_changed',
            merchantId: liveMerchant.id,
            userId: user.id,
            detail: { mode, ...detail },
          }),
      });
      return { data: await settingsOf(merchant, mode) };
    },
  );

  // Sends the payout's latest callback again (as collections do): it sends a webhook, so payout:notify.
  r.post(
    '/api/merchant/payouts/:trade_no/notify',
    {
      onRequest: guards.requirePerm('payout:notify'),
      schema: { params: TradeNoParams, response: { 200: ResendCallbackResponseSchema } },
    },
    async (request) => {
      const { merchant } = authOf(request);
      const payout = await payouts.findForMerchant(merchant.id, {
        tradeNo: ourNumber(request.params.trade_no),
      });
      return { data: await callbacks.resend(merchant.id, 'payout', payout.id) };
    },
  );
}

const PayoutResponse = z.object({ data: GatewayPayoutSchema });
const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'The Idempotency-Key header is 1 to 255 printable characters.');

/** A refusal as the error handler answers it: the body a replay of the key sends again. */
const refusalOf = (error: AppError) => ({
  message: error.message,
  code: error.code,
  ...('errors' in error ? { errors: error.errors } : {}),
  ...error.fields,
});

/**
 * A signed call's Idempotency-Key (DESIGN 6), when it sent one: the key, its body's hash, and how the
 * call's answers read. A malformed key is refused (after the signature check, so it spends the nonce).
 */
export async function idempotencyOf<Row>(
  request: FastifyRequest,
  answerOf: (row: Row) => { status: number; body: unknown },
): Promise<IdempotencyInput<Row> | undefined> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(header);
  if (!parsed.success) {
    // A refusal after the signature check spends the call's nonce, as on every route.
    if (request.gatewayClaim) await request.gatewayClaim.confirm();
    throw ValidationError.field('idempotency_key', parsed.error.issues[0].message);
  }
  return {
    key: parsed.data,
    requestHash: createHash('sha256')
      .update(request.rawBody ?? Buffer.alloc(0))
      .digest('hex'),
    answerOf,
    refusalOf,
  };
}

/** A key's stored answer goes out as it was first sent, whatever its status. */
export const sendStoredAnswer = (reply: FastifyReply, answer: StoredAnswer) =>
  reply
    .status(answer.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(answer.body);

/** The gateway's payout routes (DESIGN section 6), with Idempotency-Key. */
export function payoutsGatewayRoutes(
  { scope, requireSignature, requireSignatureDeferringClaim }: GatewayScope,
  { payouts }: { payouts: PayoutsService },
) {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const options = { preHandler: requireSignature, config: GATEWAY_ROUTE_CONFIG };

  r.post(
    '/gateway/v1/payouts',
    {
      // Without an Idempotency-Key, the payout's one statement claims the call's nonce (DeferredClaim).
      preHandler: requireSignatureDeferringClaim,
      config: GATEWAY_ROUTE_CONFIG,
      schema: {
        summary: 'Create a payout',
        description:
          'Holds amount + fee at once (422 insufficient_funds when the available balance cannot cover it; nothing is written). Send an Idempotency-Key header to retry safely: the same key and body replay the first answer with Idempotent-Replayed: true; another body answers 422; while the first is still running, 409.',
        tags: ['Payouts'],
        body: CreatePayoutBodySchema,
        response: { 201: PayoutResponse },
      },
    },
    async (request, reply) => {
      const merchant = gatewayMerchantOf(request);
      const { out_trade_no, notify_url, note, ...fields } = request.body;
      const input = {
        ...fields,
        outTradeNo: out_trade_no,
        notifyUrl: notify_url ?? null,
        note: note ?? null,
      };
      const claim = request.gatewayClaim;
      const idempotency = await idempotencyOf(request, (row: PayoutRow) => ({
        status: 201,
        body: { data: payouts.gatewayView(row, merchant.livemode) },
      }));
      const answer = await payouts.create({ source: 'gateway', merchant, input, claim, idempotency });
      if (!answer.replayed)
        return reply.status(201).send({ data: payouts.gatewayView(answer.row, merchant.livemode) });
      return sendStoredAnswer(reply, answer);
    },
  );

  r.get(
    '/gateway/v1/payouts/:trade_no',
    {
      ...options,
      schema: {
        summary: 'Get a payout by our trade_no',
        tags: ['Payouts'],
        params: TradeNoParams,
        response: { 200: PayoutResponse },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      return {
        data: payouts.gatewayView(
          await payouts.findForMerchant(merchant.id, { tradeNo: request.params.trade_no }),
          merchant.livemode,
        ),
      };
    },
  );

  r.get(
    '/gateway/v1/payouts',
    {
      ...options,
      schema: {
        summary: 'Get a payout by your out_trade_no',
        tags: ['Payouts'],
        querystring: z.object({ out_trade_no: OutTradeNoSchema }),
        response: { 200: PayoutResponse },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      return {
        data: payouts.gatewayView(
          await payouts.findForMerchant(merchant.id, { outTradeNo: request.query.out_trade_no }),
          merchant.livemode,
        ),
      };
    },
  );
}
