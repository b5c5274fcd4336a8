import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CurrentUser, CurrentUserResponseSchema } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type AuthContext, authOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import { hasOpenChannelFor } from '../channels/index.ts';

export const presentCurrentUser = (
  { user, liveMerchant: merchant, perms }: AuthContext,
  defaultMode: Mode,
): CurrentUser => ({
  id: user.id,
  name: user.name,
  email: user.email,
  roles: user.roles,
  perms,
  two_factor_enabled: user.twoFactorConfirmedAt !== null,
  timezone: user.timezone,
  merchant: { no: merchant.no, name: merchant.name, currency: merchant.currency, default_mode: defaultMode },
});

export function usersRoutes(app: FastifyInstance, { db, guards }: { db: DbOrTx; guards: Guards }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/user',
    {
      config: PURE_READ,
      onRequest: guards.requireAuth,
      schema: { response: { 200: CurrentUserResponseSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      // As Stripe opens a new account: test mode until a live channel is open (DESIGN 12).
      const live = await hasOpenChannelFor(db, auth.liveMerchant.id, 'live');
      return { data: presentCurrentUser(auth, live ? 'live' : 'test') };
    },
  );
}
