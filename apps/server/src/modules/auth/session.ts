import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { isApiRequest } from '../../plugins/api-route.ts';
import { clientOf } from '../../plugins/auth-context.ts';
import { cookieOptions } from '../../plugins/cookies.ts';
import { issueXsrfCookie, XSRF_COOKIE } from '../../plugins/csrf.ts';
import { type LoadedSession, type SessionRow, sessionsRepository } from './sessions.repository.ts';

export const SESSION_COOKIE = 'paydesk_session';
/** Idle lifetime, slid forward by activity (Laravel's default of 120 minutes). */
export const SESSION_IDLE_MS = 120 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The live session named by the cookie, or null. */
    session: SessionRow | null;
    /** The session's user and merchant, read with it (null before login or while the challenge is owed). */
    sessionUser: Pick<LoadedSession, 'user' | 'merchant'> | null;
    /** sha256 of the session cookie sent, live or not: what the CSRF token is bound to. */
    sessionCookieId: string | null;
  }
}

export type SessionStarter = ReturnType<typeof createSessions>;

// Sessions are HTTP's business (cookies): routes start and end them around what the services decide.
export function createSessions({ db, config }: { db: Db; config: Pick<Config, 'appKey'> }) {
  return {
    /**
     * Starts a new session with a new id and kills the one the request came with, so an id
     * known before login (fixation) is worthless after it.
     */
    async start(
      request: FastifyRequest,
      reply: FastifyReply,
      identity: { userId?: number; pendingUserId?: number; passwordConfirmedAt?: Date },
    ): Promise<SessionRow> {
      if (request.sessionCookieId) await sessionsRepository.delete(db, request.sessionCookieId);
      const token = randomToken();
      const client = clientOf(request);
      const row = await sessionsRepository.insert(db, {
        id: sha256Hex(token),
        userId: identity.userId ?? null,
        pendingUserId: identity.pendingUserId ?? null,
        passwordConfirmedAt: identity.passwordConfirmedAt ?? null,
        ip: client.ip,
        userAgent: client.userAgent,
        expiresAt: new Date(Date.now() + SESSION_IDLE_MS),
      });
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true));
      request.session = row;
      request.sessionUser = null;
      request.sessionCookieId = row.id;
      issueXsrfCookie(config.appKey, request, reply);
      return row;
    },
    async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (request.sessionCookieId) await sessionsRepository.delete(db, request.sessionCookieId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      reply.clearCookie(XSRF_COOKIE, { path: '/' });
      request.session = null;
      request.sessionUser = null;
      request.sessionCookieId = null;
    },
  };
}

/** Loads the session named by the cookie, with its user and merchant, on every /api request. */
export function registerSessionLoading(app: FastifyInstance, { db }: { db: Db }) {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('sessionCookieId', null);
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    request.sessionCookieId = sha256Hex(token);
    const loaded = await sessionsRepository.findLiveWithUser(db, request.sessionCookieId);
    if (!loaded) return;
    const { session } = loaded;
    if (Date.now() - session.lastActiveAt.getTime() > TOUCH_EVERY_MS) {
      const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
      await sessionsRepository.touch(db, session.id, expiresAt);
      session.expiresAt = expiresAt;
    }
    request.session = session;
    request.sessionUser = { user: loaded.user, merchant: loaded.merchant };
  });
}
