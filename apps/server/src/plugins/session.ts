import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';
import { type SessionRow, sessionsRepository } from '../modules/auth/sessions.repository.ts';
import { cookieOptions } from './cookies.ts';
import { XSRF_COOKIE, issueXsrfCookie } from './csrf.ts';
import { isApiRequest } from './api-route.ts';

export const SESSION_COOKIE = 'paydesk_session';
/** Idle lifetime, slid forward by activity (Laravel's default of 120 minutes). */
export const SESSION_IDLE_MS = 120 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The live session named by the cookie, or null. */
    session: SessionRow | null;
    /** sha256 of the session cookie sent, live or not: what the CSRF token is bound to. */
    sessionCookieId: string | null;
  }
}

export type SessionStarter = ReturnType<typeof createSessions>;

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
      const row = await sessionsRepository.insert(db, {
        id: sha256Hex(token),
        userId: identity.userId ?? null,
        pendingUserId: identity.pendingUserId ?? null,
        passwordConfirmedAt: identity.passwordConfirmedAt ?? null,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        expiresAt: new Date(Date.now() + SESSION_IDLE_MS),
      });
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true));
      request.session = row;
      request.sessionCookieId = row.id;
      issueXsrfCookie(config.appKey, request, reply);
      return row;
    },
    async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (request.sessionCookieId) await sessionsRepository.delete(db, request.sessionCookieId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      reply.clearCookie(XSRF_COOKIE, { path: '/' });
      request.session = null;
      request.sessionCookieId = null;
    },
  };
}

/** Loads the session named by the cookie on every /api request. */
export function registerSessionLoading(app: FastifyInstance, { db }: { db: Db }) {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionCookieId', null);
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    request.sessionCookieId = sha256Hex(token);
    const session = await sessionsRepository.findLive(db, request.sessionCookieId);
    if (!session) return;
    if (Date.now() - session.lastActiveAt.getTime() > TOUCH_EVERY_MS) {
      const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
      await sessionsRepository.touch(db, session.id, expiresAt);
      session.expiresAt = expiresAt;
    }
    request.session = session;
  });
}
