import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { authRoutes } from './auth.routes.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { createAuthService } from './auth.service.ts';
import type { SessionStarter } from './session.ts';

// Sign-in: sessions (cookie, loading with the user in one read), the guards, login and logout.
export { createGuards, guardOf, type RouteGuard } from './guards.ts';
export { modeOfRequest, registerModeMeta } from './modes.ts';
export {
  createSessions,
  registerSessionLoading,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  type SessionStarter,
} from './session.ts';
export { createSessionMemory } from './session-memory.ts';
export type { SessionRow } from './sessions.repository.ts';
export {
  deleteExpiredSessions,
  endAllSessionsOf,
  endOtherSessions,
  listLiveSessions,
  markPasswordConfirmed,
} from './sessions.service.ts';
export { recordSignIn, SIGN_INS_REMEMBERED } from './sign-in.ts';
export { ACCOUNT_FAILURES_PER_HOUR, LOGIN_LIMIT_PER_MINUTE, type AuthService } from './auth.service.ts';

export function registerAuthModule(
  app: FastifyInstance,
  {
    db,
    config,
    sessions,
    notifications,
    now,
  }: {
    db: Db;
    config: Config;
    sessions: SessionStarter;
    notifications: Pick<NotificationsService, 'notifyRoots' | 'merchantLabel'>;
    now: () => Date;
  },
): void {
  authRoutes(app, { auth: createAuthService({ db, notifications, now }), sessions, appKey: config.appKey });
}
