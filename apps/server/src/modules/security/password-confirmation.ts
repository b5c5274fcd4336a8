import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { MESSAGES } from '@paydesk/shared';
import {
  PASSWORD_CONFIRMATION_SECONDS,
  SECURITY_MESSAGES,
  type ConfirmPasswordBody,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { locked, ValidationError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import { sessionsRepository } from '../auth/sessions.repository.ts';
import { authOf } from '../../plugins/require-auth.ts';
import { guardFailures } from './failure-limits.ts';

/** When the session's last password confirmation stops counting, or null when there is none. */
export function confirmationExpiresAt(request: FastifyRequest): Date | null {
  const confirmedAt = request.session?.passwordConfirmedAt;
  if (!confirmedAt) return null;
  return new Date(confirmedAt.getTime() + PASSWORD_CONFIRMATION_SECONDS * 1000);
}

/** Fortify's confirmed-password-status: the window can be narrowed with ?seconds=. */
export function isPasswordConfirmed(
  request: FastifyRequest,
  withinSeconds = PASSWORD_CONFIRMATION_SECONDS,
): boolean {
  const confirmedAt = request.session?.passwordConfirmedAt;
  if (!confirmedAt) return false;
  const window = Math.min(withinSeconds, PASSWORD_CONFIRMATION_SECONDS);
  return Date.now() - confirmedAt.getTime() < window * 1000;
}

/**
 * Laravel's password.confirm middleware for JSON clients: changing two-factor settings (and ending other
 * sessions) needs the password typed again in the last 10800 s, else 423.
 */
export const requireConfirmedPassword: preHandlerAsyncHookHandler = async (request) => {
  if (!isPasswordConfirmed(request)) throw locked(MESSAGES.passwordConfirmationRequired);
};

export const createPasswordConfirmation = ({ db }: { db: Db }) => ({
  async confirm(request: FastifyRequest, body: ConfirmPasswordBody): Promise<void> {
    const { user, sessionId } = authOf(request);
    await guardFailures(db, `password-check:${user.id}`, async () => {
      if (await verifyPassword(user.passwordHash, body.password)) return null;
      return ValidationError.field('password', SECURITY_MESSAGES.passwordIncorrect);
    });
    const confirmedAt = new Date();
    await sessionsRepository.update(db, sessionId, { passwordConfirmedAt: confirmedAt });
    if (request.session) request.session.passwordConfirmedAt = confirmedAt;
  },
});
