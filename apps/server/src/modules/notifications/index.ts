import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../plugins/auth-context.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import type { NotificationsService } from './notifications.service.ts';

// Notifications (DESIGN 16): the bell's rows of each ROOT user and their emails, written by notifyRoots in
// the transaction of the change; the bell's routes.
export {
  createNotificationsService,
  type NotificationsService,
  type NotifyRootsInput,
} from './notifications.service.ts';

export function registerNotificationsModule(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; guards: Guards },
): void {
  notificationsRoutes(app, deps);
}
