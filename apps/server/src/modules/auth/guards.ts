import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type Perm, permsFor } from '@paydesk/shared';
import { forbidden, unauthenticated } from '../../lib/errors.ts';
import type { AuthContext, Guards } from '../../plugins/auth-context.ts';

/**
 * requireAuth and requirePerm. The session loader already read the user and the merchant with the session
 * (one round trip per request); a user whose merchant is not active is not signed in.
 */
export function createGuards(): Guards {
  const requireAuth: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    if (request.auth) return;
    const { session, sessionUser } = request;
    if (!session?.userId || !sessionUser?.user || !sessionUser.merchant) throw unauthenticated();
    const { user, merchant } = sessionUser;
    if (merchant.status !== 'active') throw unauthenticated();
    request.auth = {
      user,
      merchant: merchant as AuthContext['merchant'],
      perms: permsFor(user.roles, user.perms),
      sessionId: session.id,
      passwordConfirmedAt: session.passwordConfirmedAt,
    };
  };

  /** requireAuth, then the permission; the role table lives in @paydesk/shared. */
  const requirePerm = (perm: Perm): preHandlerAsyncHookHandler[] => [
    requireAuth,
    async (request: FastifyRequest, _reply: FastifyReply) => {
      if (!request.auth?.perms.includes(perm)) {
        throw forbidden('You do not have permission to do this. Please contact your administrator.');
      }
    },
  ];

  return { requireAuth, requirePerm };
}
