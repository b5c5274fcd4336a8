import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConfirmedPasswordStatusSchema,
  ConfirmPasswordBodySchema,
  MerchantTwoFactorConfirmedSchema,
  MerchantTwoFactorSecretSchema,
  OtherSessionsEndedSchema,
  PaymentPasswordResponseSchema,
  ProfileInformationBodySchema,
  RecoveryCodesSchema,
  SecurityEventListResponseSchema,
  SecurityEventsQuerySchema,
  SessionListResponseSchema,
  StepUpVerifiedSchema,
  TwoFactorChallengeBodySchema,
  TwoFactorCodeBodySchema,
  TwoFactorSecretKeySchema,
  UserMetaResponseSchema,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { authOf, clientOf, type Guards } from '../../plugins/auth-context.ts';
import type { SessionStarter } from '../auth/index.ts';
import type { AccountService } from './account.service.ts';
import type { createPasswordConfirmation } from './password-confirmation.ts';
import { isPasswordConfirmed, requireConfirmedPassword } from './password-confirmation.ts';
import type { PaymentPasswordService } from './payment-password.service.ts';
import { verifyStepUp } from './step-up.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import { mergedInput, parseInput } from './validation.ts';

type Deps = {
  db: Db;
  guards: Guards;
  appKey: Buffer;
  confirmation: ReturnType<typeof createPasswordConfirmation>;
  twoFactor: TwoFactorService;
  account: AccountService;
  paymentPassword: PaymentPasswordService;
  sessions: SessionStarter;
};

/** Fortify answers its JSON clients `""` where there is nothing to say. */
const fortifyEmpty = (reply: FastifyReply, status: number) =>
  reply.status(status).type('application/json; charset=utf-8').send('""');

const stringOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined);
const codeOrUndefined = (value: unknown) =>
  typeof value === 'number' ? String(value).padStart(6, '0') : stringOrUndefined(value);

const booleanInput = (value: unknown) => value === true || ['1', 'true', 'on', 'yes'].includes(String(value));

export function securityRoutes(app: FastifyInstance, deps: Deps) {
  const { db, guards, appKey, confirmation, twoFactor, account, paymentPassword, sessions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = [guards.requireAuth];
  const security = guards.requirePerm('security:manage');
  const twoFactorSettings = [...security, requireConfirmedPassword];

  // Password confirmation (Fortify).
  r.post('/api/user/confirm-password', { onRequest: signedIn }, async (request, reply) => {
    const confirmedAt = await confirmation.confirm(
      authOf(request),
      parseInput(ConfirmPasswordBodySchema, request.body),
    );
    if (request.session) request.session.passwordConfirmedAt = confirmedAt;
    return fortifyEmpty(reply, 201);
  });
  r.get(
    '/api/user/confirmed-password-status',
    {
      onRequest: signedIn,
      schema: {
        querystring: z.object({ seconds: z.coerce.number().int().min(0).optional() }),
        response: { 200: ConfirmedPasswordStatusSchema },
      },
    },
    async (request) => ({
      confirmed: isPasswordConfirmed(request.session?.passwordConfirmedAt, request.query.seconds),
    }),
  );

  // Two-factor authentication (Fortify), all behind a live password confirmation.
  // Replacing (force) or turning off a confirmed authenticator also takes its `code` or a `recovery_code`;
  // its secret and QR code are not shown again (404 two_factor_already_confirmed).
  r.post('/api/user/two-factor-authentication', { onRequest: twoFactorSettings }, async (request, reply) => {
    const input = mergedInput(request.query, request.body);
    await twoFactor.enable(clientOf(request), authOf(request), booleanInput(input.force), input);
    return fortifyEmpty(reply, 200);
  });
  r.delete(
    '/api/user/two-factor-authentication',
    { onRequest: twoFactorSettings },
    async (request, reply) => {
      await twoFactor.disable(clientOf(request), authOf(request), mergedInput(request.query, request.body));
      return fortifyEmpty(reply, 200);
    },
  );
  r.get('/api/user/two-factor-qr-code', { onRequest: twoFactorSettings }, async (request) =>
    twoFactor.qrCode(authOf(request).user),
  );
  r.get(
    '/api/user/two-factor-secret-key',
    { onRequest: twoFactorSettings, schema: { response: { 200: TwoFactorSecretKeySchema } } },
    async (request) => twoFactor.secretKey(authOf(request).user),
  );
  r.post(
    '/api/user/confirmed-two-factor-authentication',
    { onRequest: twoFactorSettings },
    async (request, reply) => {
      const { code } = parseInput(TwoFactorCodeBodySchema, request.body);
      await twoFactor.confirm(clientOf(request), authOf(request).user, code);
      return fortifyEmpty(reply, 200);
    },
  );
  // A confirmed authenticator's recovery codes take its current code as well: `?code=` to read them,
  // `code` or `recovery_code` to regenerate them (whose answer is the new codes).
  r.get(
    '/api/user/two-factor-recovery-codes',
    { onRequest: twoFactorSettings, schema: { response: { 200: RecoveryCodesSchema } } },
    async (request) =>
      twoFactor.recoveryCodes(clientOf(request), authOf(request).user, mergedInput(request.query, {})),
  );
  r.post(
    '/api/user/two-factor-recovery-codes',
    { onRequest: twoFactorSettings, schema: { response: { 200: RecoveryCodesSchema } } },
    async (request) =>
      twoFactor.regenerateRecoveryCodes(
        clientOf(request),
        authOf(request).user,
        mergedInput(request.query, request.body),
      ),
  );

  // The same authenticator, bound from the console's Security page (DESIGN section 7).
  r.get(
    '/api/merchant/two-factor-secret-key',
    { onRequest: twoFactorSettings, schema: { response: { 200: MerchantTwoFactorSecretSchema } } },
    async (request) => ({
      data: await twoFactor.authenticatorToBind(authOf(request).user),
    }),
  );
  r.post(
    '/api/merchant/confirmed-two-factor-authentication',
    { onRequest: twoFactorSettings, schema: { response: { 200: MerchantTwoFactorConfirmedSchema } } },
    async (request) => {
      const { code } = parseInput(TwoFactorCodeBodySchema, request.body);
      const recoveryCodes = await twoFactor.confirmAndShowRecoveryCodes(
        clientOf(request),
        authOf(request).user,
        code,
      );
      return { data: { two_factor_enabled: true as const, recovery_codes: recoveryCodes } };
    },
  );

  // The login's second step: no session user yet, only the pending one.
  r.post('/api/two-factor-challenge', async (request, reply) => {
    const body = parseInput(TwoFactorChallengeBodySchema, request.body);
    const client = clientOf(request);
    const user = await twoFactor.challenge(client, request.session?.pendingUserId, body);
    await sessions.start(request, reply, { userId: user.id });
    await twoFactor.recordLogin(client, user, body.recovery_code !== undefined);
    return reply.status(204).send();
  });

  // Profile, time zone, password.
  r.put(
    '/api/user/profile-information',
    { onRequest: guards.requirePerm('profile:manage') },
    async (request, reply) => {
      await account.updateProfile(
        clientOf(request),
        authOf(request).user,
        parseInput(ProfileInformationBodySchema, request.body),
      );
      return fortifyEmpty(reply, 200);
    },
  );
  r.get(
    '/api/user/meta',
    { onRequest: signedIn, schema: { response: { 200: UserMetaResponseSchema } } },
    async (request) => ({
      data: account.meta(authOf(request).user, request.session?.passwordConfirmedAt ?? null),
    }),
  );
  // The spec's console sends these fields as a query string; Fortify clients send a body. Both work.
  r.put('/api/user/password', { onRequest: security }, async (request, reply) => {
    await account.updatePassword(
      clientOf(request),
      authOf(request),
      mergedInput(request.query, request.body),
    );
    return fortifyEmpty(reply, 200);
  });

  // Payment password and the step-up check of money-moving actions.
  r.put(
    '/api/merchant/payment-password',
    {
      onRequest: guards.requirePerm('payment-password:manage'),
      schema: { response: { 200: PaymentPasswordResponseSchema } },
    },
    async (request) => {
      await paymentPassword.set(
        clientOf(request),
        authOf(request).user,
        mergedInput(request.query, request.body),
      );
      return { data: { payment_password_set: true as const } };
    },
  );
  r.post(
    '/api/merchant/payment-password/reset',
    {
      onRequest: guards.requirePerm('payment-password:manage'),
      schema: { response: { 200: PaymentPasswordResponseSchema } },
    },
    async (request) => {
      await paymentPassword.reset(clientOf(request), authOf(request).user, mergedInput({}, request.body));
      return { data: { payment_password_set: true as const } };
    },
  );
  r.post(
    '/api/merchant/step-up/verify',
    { onRequest: signedIn, schema: { response: { 200: StepUpVerifiedSchema } } },
    async (request) => {
      const input = mergedInput({}, request.body);
      await verifyStepUp(
        db,
        authOf(request).user,
        { paymentPassword: stringOrUndefined(input.payment_password), code: codeOrUndefined(input.code) },
        { appKey, client: clientOf(request) },
      );
      return { data: { verified: true as const } };
    },
  );

  // Sessions and the security log.
  r.get(
    '/api/user/sessions',
    { onRequest: security, schema: { response: { 200: SessionListResponseSchema } } },
    async (request) => ({ data: await account.listSessions(authOf(request)) }),
  );
  r.delete(
    '/api/user/other-browser-sessions',
    { onRequest: twoFactorSettings, schema: { response: { 200: OtherSessionsEndedSchema } } },
    async (request) => ({
      data: { ended: await account.endOtherSessions(clientOf(request), authOf(request)) },
    }),
  );
  r.get(
    '/api/merchant/security-events',
    {
      onRequest: security,
      schema: { querystring: SecurityEventsQuerySchema, response: { 200: SecurityEventListResponseSchema } },
    },
    async (request) => account.listEvents(authOf(request), request.query),
  );
}
