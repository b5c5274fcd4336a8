import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type Currency, type Perm, permsFor } from '@paydesk/shared';
import type { Db } from '../db/client.ts';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import { type MerchantRow, type UserRow, usersRepository } from '../modules/users/users.repository.ts';

export type AuthContext = {
  user: UserRow;
  merchant: MerchantRow & { currency: Currency };
  perms: Perm[];
  sessionId: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The authenticated context of a route that ran requireAuth. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export type Guards = ReturnType<typeof createGuards>;

export function createGuards({ db }: { db: Db }) {
  const requireAuth: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    if (request.auth) return;
    const session = request.session;
    if (!session?.userId) throw unauthenticated();
    const found = await usersRepository.findWithMerchant(db, session.userId);
    if (!found || found.merchant.status !== 'active') throw unauthenticated();
    request.auth = {
      user: found.user,
      merchant: found.merchant as AuthContext['merchant'],
      perms: permsFor(found.user.roles, found.user.perms),
      sessionId: session.id,
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
