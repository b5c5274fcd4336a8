import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  SECURITY_MESSAGES,
  type SecurityEventType,
  type TwoFactorChallengeBody,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound, tooManyRequests, ValidationError } from '../../lib/errors.ts';
import { clearRateLimit, hitRateLimit } from '../../lib/rate-limiter.ts';
import type { SessionStarter } from '../../plugins/session.ts';
import { type UserRow, usersRepository } from '../users/users.repository.ts';
import {
  consumeRecoveryCode,
  consumeTotpCode,
  isTwoFactorEnabled,
  readRecoveryCodes,
  readSecret,
  sealRecoveryCodes,
  sealSecret,
} from './authenticator.ts';
import { guardFailures } from './failure-limits.ts';
import { generateRecoveryCodes } from './recovery-codes.ts';
import { securityEventsRepository } from './security-events.repository.ts';
import { generateTotpSecret, qrCodeSvg, totpUrl } from './totp.ts';

type Deps = { db: Db; appKey: Buffer; sessions: SessionStarter };

export const CHALLENGE_TRIES_PER_MINUTE = 5;

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export const createTwoFactorService = ({ db, appKey, sessions }: Deps) => {
  const record = (
    request: FastifyRequest,
    user: UserRow,
    type: SecurityEventType,
    detail?: Record<string, unknown>,
  ) =>
    securityEventsRepository.record(db, request, {
      type,
      merchantId: user.merchantId,
      userId: user.id,
      detail,
    });

  const requireSecret = (user: UserRow): string => {
    const secret = readSecret(appKey, user);
    if (!secret) throw notFound(SECURITY_MESSAGES.twoFactorNotEnabled);
    return secret;
  };

  const qrCodeOf = async (user: UserRow, secret: string) => {
    const url = totpUrl(user.email, secret);
    return { svg: await qrCodeSvg(url), url };
  };

  /**
   * Fortify's enable: a new secret and 8 recovery codes, unconfirmed until a code proves the
   * authenticator has it. An existing secret is kept unless `force` asks for a new one.
   */
  const enable = async (request: FastifyRequest, user: UserRow, force: boolean): Promise<UserRow> => {
    if (user.twoFactorSecret && !force) return user;
    const wasEnabled = isTwoFactorEnabled(user);
    const updated = await usersRepository.update(db, user.id, {
      twoFactorSecret: sealSecret(appKey, generateTotpSecret()),
      twoFactorRecoveryCodes: sealRecoveryCodes(appKey, generateRecoveryCodes()),
      twoFactorConfirmedAt: null,
      twoFactorLastStep: null,
    });
    if (wasEnabled) await record(request, user, 'two_factor_disabled', { reason: 'new_secret' });
    return updated;
  };

  return {
    enable,

    /** {svg, url}, or Fortify's [] when no secret was issued. */
    async qrCode(user: UserRow): Promise<{ svg: string; url: string } | []> {
      const secret = readSecret(appKey, user);
      return secret ? qrCodeOf(user, secret) : [];
    },

    secretKey: (user: UserRow): { secretKey: string } => ({ secretKey: requireSecret(user) }),

    /** The secret, its QR code and whether it is bound, issuing a secret first when there is none. */
    async authenticatorToBind(request: FastifyRequest, user: UserRow) {
      const current = user.twoFactorSecret ? user : await enable(request, user, false);
      const secret = requireSecret(current);
      return {
        secretKey: secret,
        ...(await qrCodeOf(current, secret)),
        confirmed: isTwoFactorEnabled(current),
      };
    },

    /** A code from the authenticator turns two-factor on; 422 errors.code otherwise. */
    async confirm(request: FastifyRequest, user: UserRow, code: string): Promise<string[]> {
      if (!user.twoFactorSecret) throw ValidationError.field('code', SECURITY_MESSAGES.invalidCode);
      await guardFailures(db, `two-factor-code:${user.id}`, async () =>
        (await consumeTotpCode(db, appKey, user, code))
          ? null
          : ValidationError.field('code', SECURITY_MESSAGES.invalidCode),
      );
      if (!user.twoFactorConfirmedAt) {
        await usersRepository.update(db, user.id, { twoFactorConfirmedAt: new Date() });
        await record(request, user, 'two_factor_enabled');
      }
      return readRecoveryCodes(appKey, user);
    },

    /** Fortify answers [] when there are none; viewing them is logged. */
    async recoveryCodes(request: FastifyRequest, user: UserRow): Promise<string[]> {
      if (!user.twoFactorSecret || !user.twoFactorRecoveryCodes) return [];
      const codes = readRecoveryCodes(appKey, user);
      await record(request, user, 'recovery_codes_viewed');
      return codes;
    },

    async regenerateRecoveryCodes(request: FastifyRequest, user: UserRow): Promise<string[]> {
      requireSecret(user);
      const codes = generateRecoveryCodes();
      await usersRepository.update(db, user.id, { twoFactorRecoveryCodes: sealRecoveryCodes(appKey, codes) });
      await record(request, user, 'recovery_codes_regenerated');
      return codes;
    },

    async disable(request: FastifyRequest, user: UserRow): Promise<void> {
      if (!user.twoFactorSecret) return;
      await usersRepository.update(db, user.id, {
        twoFactorSecret: null,
        twoFactorRecoveryCodes: null,
        twoFactorConfirmedAt: null,
        twoFactorLastStep: null,
      });
      if (user.twoFactorConfirmedAt) await record(request, user, 'two_factor_disabled');
    },

    /**
     * The second step of a login with two-factor: a valid code or recovery code logs the pending user in
     * under a new session id. 5 tries a minute per pending login; without one, 422 as Fortify answers.
     */
    async challenge(
      request: FastifyRequest,
      reply: FastifyReply,
      body: TwoFactorChallengeBody,
    ): Promise<void> {
      const usesRecoveryCode = body.recovery_code !== undefined;
      const refuse = () =>
        usesRecoveryCode
          ? ValidationError.field('recovery_code', SECURITY_MESSAGES.invalidRecoveryCode)
          : ValidationError.field('code', SECURITY_MESSAGES.invalidCode);
      const pendingUserId = request.session?.pendingUserId;
      if (!pendingUserId) throw refuse();

      const throttleKey = `two-factor-challenge:${pendingUserId}`;
      const attempt = await hitRateLimit(db, throttleKey, CHALLENGE_TRIES_PER_MINUTE, 60);
      if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);

      const user = await usersRepository.findById(db, pendingUserId);
      let isValid = false;
      if (user && isTwoFactorEnabled(user)) {
        if (usesRecoveryCode) isValid = await consumeRecoveryCode(db, appKey, user.id, body.recovery_code!);
        else if (body.code !== undefined) isValid = await consumeTotpCode(db, appKey, user, body.code);
      }
      if (!user || !isValid) {
        if (user)
          await record(request, user, 'two_factor_challenge_failed', { method: method(usesRecoveryCode) });
        throw refuse();
      }

      await clearRateLimit(db, throttleKey);
      await sessions.start(request, reply, { userId: user.id });
      if (usesRecoveryCode) await record(request, user, 'recovery_code_used');
      await record(request, user, 'login', { two_factor: method(usesRecoveryCode) });
    },
  };
};

const method = (usesRecoveryCode: boolean) => (usesRecoveryCode ? 'recovery_code' : 'code');
