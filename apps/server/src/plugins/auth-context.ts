import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { SQL } from 'drizzle-orm';
import type { Currency, Perm } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { merchants, users } from '../db/schema/index.ts';
import { unauthenticated } from '../lib/errors.ts';
import { resolveTimeZone } from '../lib/timezone.ts';

// What a signed-in request carries, set by the auth module's guards and read by every module's routes.
// It lives below the modules so that any of them can read it without importing the auth module.

export type UserRow = typeof users.$inferSelect;
export type MerchantRow = typeof merchants.$inferSelect;

export type AuthContext = {
  user: UserRow;
  /**
   * The merchant row of the call's mode (X-Mode, DESIGN 12): the live row, or its test twin, whose company
   * fields are the live row's. Every object the call reads or makes is this row's.
   */
  merchant: MerchantRow & { currency: Currency };
  /** The live row: what belongs to the company and its people (keys' owner, whitelist, security log). */
  liveMerchant: MerchantRow & { currency: Currency };
  mode: Mode;
  perms: Perm[];
  sessionId: string;
  /** When this session last confirmed the password (two-factor settings need a recent one). */
  passwordConfirmedAt: Date | null;
};

/** Who is calling, as services record it (security log, sessions): never the request itself. */
export type ClientInfo = { ip: string | null; userAgent: string | null };

/** The route guards every module receives through the app context; routes run them as `onRequest`. */
export type Guards = {
  requireAuth: onRequestAsyncHookHandler;
  requirePerm: (perm: Perm) => onRequestAsyncHookHandler[];
};

/**
 * The confirmation of a remembered session (modules/auth/session-memory.ts), which a pure read may run in
 * a statement of its own instead of its own round trip. `take()` answers, to the first caller only, a select
 * of the session's `fingerprint` and `last_active_at` (its id as the statement's value `session_id`); that
 * caller must then `settle` with the row it read (undefined: none, or its statement failed). Untaken, the
 * session module confirms it itself. A request carries it in its context (plugins/request-context.ts).
 */
export type SessionCheck = {
  take(): { select: SQL; id: string } | undefined;
  settle(row: { fingerprint: string | null; last_active_at: Date | string | null } | undefined): void;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** See PURE_READ. */
    pureRead?: boolean;
  }
}

/**
 * Route config of a GET that only reads (no security event, no cache written, nothing else changed): it
 * may start on the session this process remembers, while the session is confirmed beside it; its answer
 * still waits for the confirmation, and is made again from scratch if the session changed
 * (modules/auth/session-memory.ts). The console's lists, details and balance are such reads.
 */
export const PURE_READ = { pureRead: true } as const;

/** The authenticated context of a route that ran requireAuth. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
});

/**
 * The merchant a console read acts for, its currency and the time zone its dates are read in. (The
 * confirmation of its session a list may carry in a statement is in the request's context:
 * plugins/request-context.ts.)
 */
export type Viewer = { merchantId: number; currency: Currency; timeZone: string; mode: Mode };

/** The viewer of a signed-in request: the user's time zone, else the console's X-Timezone header. */
export function viewerOf(request: FastifyRequest): Viewer {
  const { user, merchant, mode } = authOf(request);
  return {
    merchantId: merchant.id,
    mode,
    currency: merchant.currency,
    timeZone: resolveTimeZone(user.timezone, request.headers['x-timezone']),
  };
}
