import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ERROR_CODES, MESSAGES } from '@paydesk/shared';
import {
  PASSWORD_CONFIRMATION_SECONDS,
  SECURITY_MESSAGES,
  type ConfirmPasswordBody,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { locked, ValidationError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { AuthContext } from '../../plugins/auth-context.ts';
import { markPasswordConfirmed } from '../auth/index.ts';
import { guardFailures, perMinute } from './failure-limits.ts';

/** When the session's last password confirmation stops counting, or null when there is none. */
export function confirmationExpiresAt(confirmedAt: Date | null | undefined): Date | null {
  if (!confirmedAt) return null;
  return new Date(confirmedAt.getTime() + PASSWORD_CONFIRMATION_SECONDS * 1000);
}

/** Fortify's confirmed-password-status: the window can be narrowed with ?seconds=. */
export function isPasswordConfirmed(
  confirmedAt: Date | null | undefined,
  withinSeconds = PASSWORD_CONFIRMATION_SECONDS,
): boolean {
  if (!confirmedAt) return false;
  const window = Math.min(withinSeconds, PASSWORD_CONFIRMATION_SECONDS);
  return Date.now() - confirmedAt.getTime() < window * 1000;
}

/**
 * Laravel's password.confirm middleware for JSON clients: changing two-factor settings (and ending other
 * sessions) needs the password typed again in the last 10800 s, else 423.
 */
export const requireConfirmedPassword: onRequestAsyncHookHandler = async (request: FastifyRequest) => {
  if (!isPasswordConfirmed(request.session?.passwordConfirmedAt))
    throw locked(MESSAGES.passwordConfirmationRequired, ERROR_CODES.passwordConfirmationRequired);
};

export const createPasswordConfirmation = ({ db }: { db: Db }) => ({
  /** The password typed again: the session remembers when. Answers that moment. */
  async confirm(auth: Pick<AuthContext, 'user' | 'sessionId'>, body: ConfirmPasswordBody): Promise<Date> {
    const { user, sessionId } = auth;
    await guardFailures(db, [perMinute(`password-check:${user.id}`)], async () => {
      if (await verifyPassword(user.passwordHash, body.password)) return null;
      return ValidationError.field(
        'password',
        SECURITY_MESSAGES.passwordIncorrect,
        ERROR_CODES.passwordIncorrect,
      );
    });
    const confirmedAt = new Date();
    await markPasswordConfirmed(db, sessionId, confirmedAt);
    return confirmedAt;
  },
});
