import { ERROR_CODES, type LoginBody, MESSAGES } from '@paydesk/shared';
import type { Db } from '../../db/client.ts';
import { tooManyRequests, ValidationError } from '../../lib/errors.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/password.ts';
import { clearRateLimit, hitRateLimit, releaseRateLimit } from '../../db/rate-limits.ts';
import type { ClientInfo, UserRow } from '../../plugins/auth-context.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { findUserByEmail, findUserById } from '../users/index.ts';
import { recordSignIn } from './sign-in.ts';

type Deps = {
  db: Db;
  notifications: Pick<NotificationsService, 'notifyRoots' | 'merchantLabel'>;
  now: () => Date;
};

export const LOGIN_LIMIT_PER_MINUTE = 5;
export const ACCOUNT_FAILURES_PER_HOUR = 100;

/** Who logged in, and whether the two-factor challenge is still owed before they are signed in. */
export type LoginOutcome = { user: UserRow; twoFactor: boolean };

export type AuthService = ReturnType<typeof createAuthService>;

export const createAuthService = ({ db, notifications, now }: Deps) => ({
  /**
   * Fortify's login: 5 tries a minute per email and IP, 100 failures an hour per account from anywhere;
   * the same answer for an unknown email and a wrong password. The route starts the session.
   */
  async login(client: ClientInfo, body: LoginBody): Promise<LoginOutcome> {
    const email = body.email.toLowerCase();
    const ipKey = `login:${email}|${client.ip ?? ''}`;
    const perIp = await hitRateLimit(db, ipKey, LOGIN_LIMIT_PER_MINUTE, 60);
    if (!perIp.allowed)
      throw tooManyRequests(perIp.retryAfterSeconds, throttleMessage(perIp.retryAfterSeconds));
    // Counted before the check, so tries sent together from many IPs cannot pass the ceiling; a right
    // password gives its try back.
    const accountKey = `login-failures:${email}`;
    const failures = await hitRateLimit(db, accountKey, ACCOUNT_FAILURES_PER_HOUR, 3600);
    if (!failures.allowed) {
      throw tooManyRequests(failures.retryAfterSeconds, throttleMessage(failures.retryAfterSeconds));
    }

    const user = await findUserByEmail(db, email);
    const isValid = user
      ? await verifyPassword(user.passwordHash, body.password)
      : (await burnPasswordCheck(body.password), false);
    if (!user || !isValid) {
      await recordSecurityEvent(db, client, {
        type: 'login_failed',
        merchantId: user?.merchantId ?? null,
        userId: user?.id ?? null,
      });
      throw ValidationError.field('email', MESSAGES.badCredentials, ERROR_CODES.badCredentials);
    }

    await releaseRateLimit(db, accountKey);
    await clearRateLimit(db, ipKey);
    // Said only after the right password, so it tells a stranger nothing about the address.
    if (user.disabledAt) {
      throw ValidationError.field('email', MESSAGES.userDisabled, ERROR_CODES.userDisabled);
    }
    return { user, twoFactor: user.twoFactorConfirmedAt !== null };
  },

  /** The login event, once the session that signs the user in exists. */
  async recordLogin(client: ClientInfo, user: UserRow, detail?: Record<string, unknown>): Promise<void> {
    await recordSignIn({ db, notifications, now }, client, user, detail);
  },

  /** The logout event of a signed-in session; the route ends the session. */
  async recordLogout(client: ClientInfo, userId: number | null | undefined): Promise<void> {
    if (!userId) return;
    const user = await findUserById(db, userId);
    await recordSecurityEvent(db, client, {
      type: 'logout',
      merchantId: user?.merchantId ?? null,
      userId,
    });
  },
});

const throttleMessage = (seconds: number) =>
  `Too many login attempts. Please try again in ${seconds} seconds.`;
