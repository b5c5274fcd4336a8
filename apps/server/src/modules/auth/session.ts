import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { isApiRequest } from '../../plugins/api-route.ts';
import { clientOf, type SessionCheck } from '../../plugins/auth-context.ts';
import { cookieOptions } from '../../plugins/cookies.ts';
import { setRequestSessionCheck } from '../../plugins/request-context.ts';
import { issueXsrfCookie, XSRF_COOKIE } from '../../plugins/csrf.ts';
import type { SessionMemory } from './session-memory.ts';
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
    /** A read served on a remembered session: settles true once the database confirms it as remembered. */
    sessionConfirmation: Promise<boolean> | null;
  }
}

export type SessionStarter = ReturnType<typeof createSessions>;

// Sessions are HTTP's business (cookies): routes start and end them around what the services decide.
export function createSessions({
  db,
  config,
  memory,
}: {
  db: Db;
  config: Pick<Config, 'appKey'>;
  memory: SessionMemory;
}) {
  /** The session the request came with, gone from the database and from this process's memory. */
  async function endCurrent(request: FastifyRequest) {
    if (!request.sessionCookieId) return;
    memory.forget(request.sessionCookieId);
    await sessionsRepository.delete(db, request.sessionCookieId);
  }
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
      await endCurrent(request);
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
      await endCurrent(request);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      reply.clearCookie(XSRF_COOKIE, { path: '/' });
      request.session = null;
      request.sessionUser = null;
      request.sessionCookieId = null;
    },
  };
}

/** Loads the session named by the cookie, with its user and merchant, on every /api request. */
export function registerSessionLoading(
  app: FastifyInstance,
  { db, memory }: { db: Db; memory: SessionMemory },
) {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('sessionCookieId', null);
  app.decorateRequest('sessionConfirmation', null);

  /** The session as the database has it now, its idle expiry slid forward at most once a minute. */
  async function loadFresh(id: string): Promise<LoadedSession | undefined> {
    const loaded = await sessionsRepository.findLiveWithUser(db, id);
    if (!loaded) {
      memory.forget(id);
      return undefined;
    }
    await touchIfDue(loaded.session);
    memory.remember(loaded);
    return loaded;
  }

  async function touchIfDue(session: SessionRow): Promise<void> {
    if (Date.now() - session.lastActiveAt.getTime() <= TOUCH_EVERY_MS) return;
    const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
    await sessionsRepository.touch(db, session.id, expiresAt);
    session.expiresAt = expiresAt;
    session.lastActiveAt = new Date();
  }

  /**
   * Whether a remembered session still reads as remembered (its fingerprint, as read now by confirmLive or
   * in a reader's statement); slides its expiry as loadFresh.
   */
  async function confirmRemembered(
    recalled: LoadedSession,
    now: { fingerprint: string; lastActiveAt: Date } | undefined,
  ): Promise<boolean> {
    if (!now) {
      memory.forget(recalled.session.id);
      return false;
    }
    // Changed: the request is served again from scratch, which reads and remembers the session anew.
    if (now.fingerprint !== recalled.fingerprint) return false;
    recalled.session.lastActiveAt = now.lastActiveAt;
    await touchIfDue(recalled.session);
    return true;
  }

  /**
   * Starts the confirmation of a remembered session: a reader may carry it in its own statement
   * (the request's context: requestSessionCheck); if none has taken it once the request's synchronous start is over (the check
   * phase, after its handler's first statements were sent), it is read on its own.
   */
  function checkRemembered(request: FastifyRequest, recalled: LoadedSession): Promise<boolean> {
    let taken = false;
    let settle!: (row: Parameters<SessionCheck['settle']>[0]) => void;
    const read = new Promise<Parameters<SessionCheck['settle']>[0]>((resolve) => (settle = resolve));
    const take = () => {
      if (taken) return false;
      taken = true;
      return true;
    };
    setRequestSessionCheck({
      take: () =>
        take() ? { select: sessionsRepository.confirmSelect, id: recalled.session.id } : undefined,
      settle: (row) => settle(row),
    });
    setImmediate(() => {
      if (!take()) return;
      sessionsRepository.confirmLive(db, recalled.session.id).then(
        (row) => settle(row && { fingerprint: row.fingerprint, last_active_at: row.lastActiveAt }),
        () => settle(undefined),
      );
    });
    return read
      .then((row) =>
        confirmRemembered(
          recalled,
          row?.fingerprint && row.last_active_at
            ? { fingerprint: row.fingerprint, lastActiveAt: new Date(row.last_active_at) }
            : undefined,
        ),
      )
      .catch(() => false);
  }

  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const id = sha256Hex(token);
    request.sessionCookieId = id;
    // A pure read (PURE_READ) with a session this process remembers starts at once; the confirmation runs
    // beside it and the answer waits for it (onSend below). Anything else reads the session first.
    const fromMemory =
      request.method === 'GET' &&
      request.routeOptions.config?.pureRead === true &&
      request.headers[REPLAY_HEADER] !== memory.replayToken;
    const recalled = fromMemory ? memory.recall(id) : undefined;
    const loaded = recalled ?? (await loadFresh(id));
    if (!loaded) return;
    if (recalled) request.sessionConfirmation = checkRemembered(request, recalled);
    request.session = { ...loaded.session };
    request.sessionUser = { user: loaded.user, merchant: loaded.merchant };
  });

  // Nothing read on a remembered session leaves before the session is confirmed as remembered. If it is not
  // (it ended, or its password, user or merchant changed), the request is served again from scratch and
  // that answer is sent instead: the change counts on the very next request, in every process.
  app.addHook('onSend', async (request, reply, payload) => {
    const confirmation = request.sessionConfirmation;
    if (!confirmation) return payload;
    request.sessionConfirmation = null;
    if (await confirmation) return payload;
    if (payload instanceof Readable) payload.destroy();
    const again = await app.inject({
      method: 'GET',
      url: request.url,
      headers: { ...request.headers, [REPLAY_HEADER]: memory.replayToken },
      remoteAddress: request.socket.remoteAddress ?? '127.0.0.1',
    });
    for (const name of Object.keys(reply.getHeaders())) {
      if (!(name in again.headers)) reply.removeHeader(name);
    }
    for (const [name, value] of Object.entries(again.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) void reply.header(name, value);
    }
    void reply.code(again.statusCode);
    return again.rawPayload;
  });
}

/** Set on a request this process serves again, with a token only it knows; never taken from a client. */
const REPLAY_HEADER = 'x-paydesk-session-replay';
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);
