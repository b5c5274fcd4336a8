import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MarkNotificationsReadBodySchema,
  MarkNotificationsReadResponseSchema,
  NotificationListQuerySchema,
  NotificationListResponseSchema,
} from '@paydesk/shared/notifications/notifications.schemas.ts';
import { authOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import { parseInput } from '../security/index.ts';
import type { NotificationsService } from './notifications.service.ts';

/** The bell (DESIGN 16): every signed-in user reads and marks their own notifications. */
export function notificationsRoutes(
  app: FastifyInstance,
  { notifications, guards }: { notifications: NotificationsService; guards: Guards },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/merchant/notifications',
    {
      config: PURE_READ,
      onRequest: guards.requireAuth,
      schema: { response: { 200: NotificationListResponseSchema } },
    },
    async (request) =>
      notifications.list(authOf(request).user.id, parseInput(NotificationListQuerySchema, request.query)),
  );
  r.post(
    '/api/merchant/notifications/read',
    { onRequest: guards.requireAuth, schema: { response: { 200: MarkNotificationsReadResponseSchema } } },
    async (request) => ({
      data: await notifications.markRead(
        authOf(request).user.id,
        parseInput(MarkNotificationsReadBodySchema, request.body),
      ),
    }),
  );
}
