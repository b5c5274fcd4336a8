import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CurrentUser, CurrentUserResponseSchema } from '@paydesk/shared';
import { type AuthContext, authOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';

export const presentCurrentUser = ({ user, merchant, perms }: AuthContext): CurrentUser => ({
  id: user.id,
  name: user.name,
  email: user.email,
  roles: user.roles,
  perms,
  two_factor_enabled: user.twoFactorConfirmedAt !== null,
  timezone: user.timezone,
  merchant: { no: merchant.no, name: merchant.name, currency: merchant.currency },
});

export function usersRoutes(app: FastifyInstance, { guards }: { guards: Guards }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/user',
    {
      config: PURE_READ,
      onRequest: guards.requireAuth,
      schema: { response: { 200: CurrentUserResponseSchema } },
    },
    async (request) => ({ data: presentCurrentUser(authOf(request)) }),
  );
}
