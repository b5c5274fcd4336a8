import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CurrentUser, CurrentUserResponseSchema } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import {
  type Locale,
  UpdateLocaleBodySchema,
  UpdateLocaleResponseSchema,
} from '@paydesk/shared/notifications/notifications.schemas.ts';
import { ValidationError } from '../../lib/errors.ts';
import { issuesToErrors } from '../../plugins/error-handler.ts';
import { setUserLocale } from './users.service.ts';
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
  locale: user.locale as Locale,
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

  // The console's language, recorded at sign-in and at each switch: the language of the user's mail.
  app
    .withTypeProvider<ZodTypeProvider>()
    .put(
      '/api/user/locale',
      { onRequest: guards.requireAuth, schema: { response: { 200: UpdateLocaleResponseSchema } } },
      async (request) => {
        // Parsed here (modules/security's parseInput would make users and security import each other).
        const parsed = UpdateLocaleBodySchema.safeParse(request.body ?? {});
        if (!parsed.success) {
          throw new ValidationError(
            issuesToErrors(
              parsed.error.issues.map((i) => ({ field: i.path.join('.'), code: i.code, message: i.message })),
            ),
          );
        }
        const { locale } = parsed.data;
        return { data: { locale: await setUserLocale(db, authOf(request).user.id, locale) } };
      },
    );
}
