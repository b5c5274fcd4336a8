import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BulkResendCallbacksBodySchema,
  BulkResendCallbacksResponseSchema,
  ResendOneCallbackResponseSchema,
  UndeliveredCallbackListQuerySchema,
  UndeliveredCallbackListResponseSchema,
} from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { authOf, type Guards, PURE_READ, viewerOf } from '../../plugins/auth-context.ts';
import { type CallbacksService, type CallbackViewer, hiddenCallbackRefTypes } from './callbacks.service.ts';

const EventIdParams = z.object({ event_id: z.string() });

/** The signed-in user's events (the mode's merchant row), but those of orders it may not see or resend. */
const callbackViewerOf = (request: FastifyRequest, action: 'view' | 'resend'): CallbackViewer => {
  const { merchantId, timeZone } = viewerOf(request);
  return { merchantId, timeZone, hiddenRefTypes: hiddenCallbackRefTypes(authOf(request).perms, action) };
};

/**
 * Settings > Webhook deliveries (DESIGN 6): the undelivered events of the last 30 days, resent one by one or
 * in bulk. Seeing them takes the permission that shows their orders; resending, the one that resends an
 * order's callback.
 */
export function callbacksConsoleRoutes(
  app: FastifyInstance,
  { callbacks, guards }: { callbacks: CallbacksService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/merchant/callbacks',
    {
      config: PURE_READ,
      onRequest: guards.requirePerm('collection:view'),
      schema: {
        querystring: UndeliveredCallbackListQuerySchema,
        response: { 200: UndeliveredCallbackListResponseSchema },
      },
    },
    async (request) => callbacks.listUndelivered(callbackViewerOf(request, 'view'), request.query),
  );

  r.post(
    '/api/merchant/callbacks/resend',
    {
      onRequest: guards.requirePerm('collection:notify'),
      schema: { body: BulkResendCallbacksBodySchema, response: { 200: BulkResendCallbacksResponseSchema } },
    },
    async (request) => ({
      data: await callbacks.resendUndelivered(callbackViewerOf(request, 'resend'), request.body),
    }),
  );

  r.post(
    '/api/merchant/callbacks/:event_id/resend',
    {
      onRequest: guards.requirePerm('collection:notify'),
      schema: { params: EventIdParams, response: { 200: ResendOneCallbackResponseSchema } },
    },
    async (request) => ({
      data: await callbacks.resendEvent(callbackViewerOf(request, 'resend'), request.params.event_id),
    }),
  );
}
