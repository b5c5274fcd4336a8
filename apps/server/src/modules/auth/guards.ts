import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { type Perm, permsFor } from '@paydesk/shared';
import { forbidden, unauthenticated } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { AuthContext, Guards } from '../../plugins/auth-context.ts';
import { createTwinLookup, modeOfRequest, refuseLiveOnlyInTestMode } from './modes.ts';

/** What a guard hook checks: a session, and the permission (null: any signed-in user). */
export type RouteGuard = { perm: Perm | null };

const checks = new WeakMap<object, RouteGuard>();
const tagged = <T extends object>(hook: T, guard: RouteGuard): T => {
  checks.set(hook, guard);
  return hook;
};

/**
 * The guard among a route's hooks (the permission matrix test reads every route's `onRequest` with it):
 * the permission of a requirePerm, `{ perm: null }` for requireAuth alone, undefined for none.
 */
export function guardOf(hooks: unknown): RouteGuard | undefined {
  let found: RouteGuard | undefined;
  for (const hook of Array.isArray(hooks) ? hooks : [hooks]) {
    const guard = typeof hook === 'function' ? checks.get(hook) : undefined;
    if (guard && (!found || guard.perm !== null)) found = guard;
  }
  return found;
}

/**
 * requireAuth and requirePerm. The session loader already read the user and the merchant with the session
 * (one round trip per request); a user whose merchant is not active is not signed in. Routes run them as
 * `onRequest` hooks, after the session is loaded and the CSRF token checked and before the body is read
 * or validated: a caller without a session gets 401 and one without the permission 403, never 422.
 */
export function createGuards(db: DbOrTx): Guards {
  const twinOf = createTwinLookup(db);
  const requireAuth: onRequestAsyncHookHandler = tagged(
    async (request: FastifyRequest) => {
      if (request.auth) return;
      // Every signed-in route runs this guard, so none can forget the mode (or a bad X-Mode's 400).
      const mode = modeOfRequest(request);
      const { session, sessionUser } = request;
      if (!session?.userId || !sessionUser?.user || !sessionUser.merchant) throw unauthenticated();
      refuseLiveOnlyInTestMode(request, mode);
      const { user } = sessionUser;
      // Disabling ends the user's sessions; this holds even for one started in the same instant.
      if (user.disabledAt) throw unauthenticated();
      const liveMerchant = sessionUser.merchant as AuthContext['merchant'];
      if (liveMerchant.status !== 'active') throw unauthenticated();
      const merchant =
        mode === 'live'
          ? liveMerchant
          : { ...liveMerchant, id: await twinOf(liveMerchant.id), mode, liveMerchantId: liveMerchant.id };
      request.auth = {
        user,
        merchant,
        liveMerchant,
        mode,
        perms: permsFor(user.roles, user.perms),
        sessionId: session.id,
        passwordConfirmedAt: session.passwordConfirmedAt,
      };
    },
    { perm: null },
  );

  /** requireAuth, then the permission; the role table lives in @paydesk/shared. */
  const requirePerm = (perm: Perm): onRequestAsyncHookHandler[] => [
    requireAuth,
    tagged(
      async (request: FastifyRequest, _reply: FastifyReply) => {
        if (!request.auth?.perms.includes(perm)) {
          throw forbidden('You do not have permission to do this. Please contact your administrator.');
        }
      },
      { perm },
    ),
  ];

  return { requireAuth, requirePerm };
}
