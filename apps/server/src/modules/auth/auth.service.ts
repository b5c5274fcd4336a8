import type { FastifyReply, FastifyRequest } from 'fastify';
import { type LoginBody, MESSAGES } from '@paydesk/shared';
import type { Db } from '../../db/client.ts';
import { tooManyRequests, ValidationError } from '../../lib/errors.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/password.ts';
import { clearRateLimit, hitRateLimit, releaseRateLimit } from '../../lib/rate-limiter.ts';
import type { SessionStarter } from '../../plugins/session.ts';
import { securityEventsRepository } from '../security/security-events.repository.ts';
import { usersRepository } from '../users/users.repository.ts';

type Deps = { db: Db; sessions: SessionStarter };

export const LOGIN_LIMIT_PER_MINUTE = 5;
export const ACCOUNT_FAILURES_PER_HOUR = 100;

export const createAuthService = ({ db, sessions }: Deps) => ({
  /**
   * Fortify's login: 5 tries a minute per email and IP, 100 failures an hour per account from anywhere;
   * the same answer for an unknown email and a wrong password.
   */
  async login(
    request: FastifyRequest,
    reply: FastifyReply,
    body: LoginBody,
  ): Promise<{ two_factor: boolean }> {
    const email = body.email.toLowerCase();
    const perIp = await hitRateLimit(db, `login:${email}|${request.ip}`, LOGIN_LIMIT_PER_MINUTE, 60);
    if (!perIp.allowed)
      throw tooManyRequests(perIp.retryAfterSeconds, throttleMessage(perIp.retryAfterSeconds));
    // Counted before the check, so tries sent together from many IPs cannot pass the ceiling; a right
    // password gives its try back.
    const accountKey = `login-failures:${email}`;
    const failures = await hitRateLimit(db, accountKey, ACCOUNT_FAILURES_PER_HOUR, 3600);
    if (!failures.allowed) {
      throw tooManyRequests(failures.retryAfterSeconds, throttleMessage(failures.retryAfterSeconds));
    }

    const user = await usersRepository.findByEmail(db, email);
    const isValid = user
      ? await verifyPassword(user.passwordHash, body.password)
      : (await burnPasswordCheck(body.password), false);
    if (!user || !isValid) {
      await securityEventsRepository.record(db, request, {
        type: 'login_failed',
        merchantId: user?.merchantId ?? null,
        userId: user?.id ?? null,
      });
      throw ValidationError.field('email', MESSAGES.badCredentials);
    }

    await releaseRateLimit(db, accountKey);
    await clearRateLimit(db, `login:${email}|${request.ip}`);
    if (user.twoFactorConfirmedAt) {
      // Not logged in yet: the session only remembers who owes the challenge.
      await sessions.start(request, reply, { pendingUserId: user.id });
      return { two_factor: true };
    }
    await sessions.start(request, reply, { userId: user.id });
    await securityEventsRepository.record(db, request, {
      type: 'login',
      merchantId: user.merchantId,
      userId: user.id,
    });
    return { two_factor: false };
  },

  async logout(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const userId = request.session?.userId;
    if (userId) {
      const user = await usersRepository.findById(db, userId);
      await securityEventsRepository.record(db, request, {
        type: 'logout',
        merchantId: user?.merchantId ?? null,
        userId,
      });
    }
    await sessions.end(request, reply);
  },
});

const throttleMessage = (seconds: number) =>
  `Too many login attempts. Please try again in ${seconds} seconds.`;
