import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CollectionDetailResponseSchema,
  CreateCollectionBodySchema,
  GatewayCollectionSchema,
  OutTradeNoSchema,
  ResendCallbackResponseSchema,
  SettlementDetailResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { type Guards, PURE_READ, viewerOf } from '../../plugins/auth-context.ts';
import type { CallbacksService } from '../callbacks/index.ts';
import {
  GATEWAY_ROUTE_CONFIG,
  type GatewayScope,
  gatewayMerchantOf,
  requestOrigin,
} from '../gateway/index.ts';
import type { CollectionsService } from './collections.service.ts';
import type { SettlementsService } from './settlements.service.ts';

type Deps = {
  collections: CollectionsService;
  settlements: SettlementsService;
  callbacks: CallbacksService;
  guards: Guards;
};

const TradeNoParams = z.object({ trade_no: z.string() });
const SettlementNoParams = z.object({ settlement_no: z.string() });
// Anything but a number of ours reads as "not found", never as a validation error that confirms a format.
const ourNumber = (value: string, what: string) => {
  if (!/^[A-Z][0-9]{8,40}$/.test(value)) throw notFound(`The ${what} was not found.`);
  return value;
};

/** Receive money in the console (DESIGN section 5): an order's and a settlement's detail (the lists: *.list.ts). */
export function collectionsConsoleRoutes(
  app: FastifyInstance,
  { collections, settlements, callbacks, guards }: Deps,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = guards.requirePerm('collection:view');

  r.get(
    '/api/merchant/collections/:trade_no',
    {
      config: PURE_READ,
      onRequest,
      schema: { params: TradeNoParams, response: { 200: CollectionDetailResponseSchema } },
    },
    async (request) => ({
      data: await collections.detail(
        viewerOf(request),
        ourNumber(request.params.trade_no, 'order'),
        settlements.settlementNoOf,
      ),
    }),
  );

  r.post(
    '/api/merchant/collections/:trade_no/notify',
    {
      onRequest: guards.requirePerm('collection:notify'),
      schema: { params: TradeNoParams, response: { 200: ResendCallbackResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const order = await collections.findForMerchant(viewer.merchantId, {
        tradeNo: ourNumber(request.params.trade_no, 'order'),
      });
      return { data: await callbacks.resend(viewer.merchantId, 'collection', order.id) };
    },
  );

  r.get(
    '/api/merchant/settlements/:settlement_no',
    {
      config: PURE_READ,
      onRequest,
      schema: { params: SettlementNoParams, response: { 200: SettlementDetailResponseSchema } },
    },
    async (request) => ({
      data: await settlements.detail(
        viewerOf(request),
        ourNumber(request.params.settlement_no, 'settlement'),
      ),
    }),
  );
}

const CollectionResponse = z.object({ data: GatewayCollectionSchema });
const GetByOutTradeNoQuery = z.object({ out_trade_no: OutTradeNoSchema });

/** The gateway's collection routes (DESIGN section 6). */
export function collectionsGatewayRoutes(
  { scope, requireSignature, requireSignatureDeferringClaim }: GatewayScope,
  { collections }: Pick<Deps, 'collections'>,
) {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const options = { preHandler: requireSignature, config: GATEWAY_ROUTE_CONFIG };

  r.post(
    '/gateway/v1/collections',
    {
      // The order's insert claims the call's nonce in the same statement (DeferredClaim).
      preHandler: requireSignatureDeferringClaim,
      config: GATEWAY_ROUTE_CONFIG,
      schema: {
        summary: 'Create a collection (pay-in) order',
        description:
          'Answers 201 with the order and its pay_url. A repeated out_trade_no answers 409 with the existing trade_no; no open channel answers 422 channel_unavailable.',
        tags: ['Collections'],
        body: CreateCollectionBodySchema,
        response: { 201: CollectionResponse },
      },
    },
    async (request, reply) => {
      const merchant = gatewayMerchantOf(request);
      const row = request.gatewayClaim
        ? await collections.createClaiming(merchant, request.body, request.gatewayClaim)
        : await collections.create(merchant, request.body);
      return reply
        .status(201)
        .send({ data: collections.gatewayView(row, merchant.livemode, requestOrigin(request)) });
    },
  );

  r.get(
    '/gateway/v1/collections/:trade_no',
    {
      ...options,
      schema: {
        summary: 'Get a collection by our trade_no',
        tags: ['Collections'],
        params: TradeNoParams,
        response: { 200: CollectionResponse },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      const row = await collections.findForMerchant(merchant.id, { tradeNo: request.params.trade_no });
      return { data: collections.gatewayView(row, merchant.livemode, requestOrigin(request)) };
    },
  );

  r.get(
    '/gateway/v1/collections',
    {
      ...options,
      schema: {
        summary: 'Get a collection by your out_trade_no',
        tags: ['Collections'],
        querystring: GetByOutTradeNoQuery,
        response: { 200: CollectionResponse },
      },
    },
    async (request) => {
      const merchant = gatewayMerchantOf(request);
      const row = await collections.findForMerchant(merchant.id, { outTradeNo: request.query.out_trade_no });
      return { data: collections.gatewayView(row, merchant.livemode, requestOrigin(request)) };
    },
  );
}
