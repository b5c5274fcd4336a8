import { ERROR_CODES } from '@paydesk/shared';
import {
  type ProfileInformationBody,
  SECURITY_MESSAGES,
  type SecurityEventsQuery,
  type SessionItem,
  type SecurityEventItem,
  UpdatePasswordBodySchema,
  type UserMeta,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { ValidationError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { hitRateLimit, releaseRateLimit } from '../../db/rate-limits.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import type { AuthContext, ClientInfo } from '../../plugins/auth-context.ts';
import { endOtherSessions, listLiveSessions } from '../auth/index.ts';
import { countSecurityEvents, listSecurityEvents, recordSecurityEvent } from '../security-log/index.ts';
import { findUserByEmail, updateUser, type UserRow } from '../users/index.ts';
import { isTwoFactorEnabled } from './authenticator.ts';
import { FAILURES_PER_MINUTE } from './failure-limits.ts';
import { confirmationExpiresAt, isPasswordConfirmed } from './password-confirmation.ts';
import { isPaymentLocked } from './step-up.ts';
import { normalizeTimeZone } from './time-zone.ts';
import { describeUserAgent } from './user-agent.ts';
import { zodErrors } from './validation.ts';

type Deps = { db: Db };

export type AccountService = ReturnType<typeof createAccountService>;

const UNIQUE_VIOLATION = '23505';

export const createAccountService = ({ db }: Deps) => ({
  /** Fortify's profile update (name, email unique across users) plus the user's time zone. */
  async updateProfile(client: ClientInfo, user: UserRow, body: ProfileInformationBody): Promise<void> {
    const errors: Record<string, string[]> = {};
    const email = body.email.trim();
    const other = await findUserByEmail(db, email);
    if (other && other.id !== user.id) errors.email = [SECURITY_MESSAGES.emailTaken];
    let timezone = user.timezone;
    if (body.timezone !== undefined) {
      const raw = body.timezone?.trim() ?? '';
      timezone = raw === '' ? null : normalizeTimeZone(raw);
      if (raw !== '' && timezone === null) errors.timezone = [SECURITY_MESSAGES.invalidTimeZone];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const name = body.name.trim();
    const changed = [
      name !== user.name && 'name',
      email !== user.email && 'email',
      timezone !== user.timezone && 'timezone',
    ].filter((field): field is string => field !== false);
    if (changed.length === 0) return;
    try {
      // The change and its security event commit together.
      await db.transaction(async (tx) => {
        await updateUser(tx, user.id, { name, email, timezone });
        await recordSecurityEvent(tx, client, {
          type: 'profile_updated',
          merchantId: user.merchantId,
          userId: user.id,
          detail: {
            fields: changed,
            ...(changed.includes('email') ? { from: user.email, to: email } : {}),
          },
        });
      });
    } catch (error) {
      // Two users taking the same email at once: the unique index decides, the loser gets the 422.
      if (
        (error as { code?: string; cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION ||
        (error as { code?: string }).code === UNIQUE_VIOLATION
      ) {
        throw ValidationError.field('email', SECURITY_MESSAGES.emailTaken, ERROR_CODES.emailTaken);
      }
      throw error;
    }
  },

  /**
   * Fortify's password update, with every failed rule reported together as Laravel does. Every other
   * session of the user ends (including half-finished two-factor logins); this one stays.
   */
  async updatePassword(client: ClientInfo, auth: AuthContext, input: Record<string, unknown>): Promise<void> {
    const { user, sessionId } = auth;
    const parsed = UpdatePasswordBodySchema.safeParse(input);
    const errors: Record<string, string[]> = {};
    const current = input.current_password;
    if (typeof current === 'string' && current !== '') {
      // Counted before the check (as guardFailures does); a right one gives its try back.
      const key = `password-check:${user.id}`;
      const attempt = await hitRateLimit(db, key, FAILURES_PER_MINUTE, 60);
      if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
      if (await verifyPassword(user.passwordHash, current)) await releaseRateLimit(db, key);
      else errors.current_password = [SECURITY_MESSAGES.currentPasswordMismatch];
    }
    if (!parsed.success) {
      for (const [field, messages] of Object.entries(zodErrors(parsed.error))) {
        errors[field] = [...(errors[field] ?? []), ...messages];
      }
    }
    if (Object.keys(errors).length > 0 || !parsed.success) throw new ValidationError(errors);

    const passwordHash = await hashPassword(parsed.data.password);
    // The new password, the other sessions ended and the event: all of it or none of it.
    await db.transaction(async (tx) => {
      await updateUser(tx, user.id, { passwordHash });
      const ended = await endOtherSessions(tx, user.id, sessionId);
      await recordSecurityEvent(tx, client, {
        type: 'password_changed',
        merchantId: user.merchantId,
        userId: user.id,
        detail: { other_sessions_ended: ended },
      });
    });
  },

  meta(user: UserRow, passwordConfirmedAt: Date | null): UserMeta {
    const confirmedUntil = confirmationExpiresAt(passwordConfirmedAt);
    const isConfirmed = isPasswordConfirmed(passwordConfirmedAt);
    return {
      timezone: user.timezone,
      two_factor_enabled: isTwoFactorEnabled(user),
      two_factor_pending: user.twoFactorSecret !== null && user.twoFactorConfirmedAt === null,
      two_factor_confirmed_at: user.twoFactorConfirmedAt?.toISOString() ?? null,
      payment_password_set: user.paymentPasswordHash !== null,
      payment_locked_until: isPaymentLocked(user) ? user.paymentLockedUntil!.toISOString() : null,
      password_confirmed: isConfirmed,
      password_confirmed_until: isConfirmed && confirmedUntil ? confirmedUntil.toISOString() : null,
    };
  },

  async listSessions(auth: AuthContext): Promise<SessionItem[]> {
    const rows = await listLiveSessions(db, auth.user.id);
    return rows.map((row) => ({
      id: sessionHandle(row.id),
      ...describeUserAgent(row.userAgent),
      user_agent: row.userAgent,
      ip: row.ip,
      created_at: row.createdAt.toISOString(),
      last_active_at: row.lastActiveAt.toISOString(),
      is_current: row.id === auth.sessionId,
    }));
  },

  /** "Sign out other sessions": every session of the user but this one. */
  async endOtherSessions(client: ClientInfo, auth: AuthContext): Promise<number> {
    return db.transaction(async (tx) => {
      const ended = await endOtherSessions(tx, auth.user.id, auth.sessionId);
      await recordSecurityEvent(tx, client, {
        type: 'other_sessions_ended',
        merchantId: auth.user.merchantId,
        userId: auth.user.id,
        detail: { ended },
      });
      return ended;
    });
  },

  /**
   * ROOT sees the whole merchant's log; everyone else sees their own. The log is the company's and its
   * people's, recorded on the live row, so it reads the same in either mode (DESIGN 12).
   */
  async listEvents(auth: AuthContext, query: SecurityEventsQuery) {
    const filter = {
      merchantId: auth.liveMerchant.id,
      userId: auth.user.roles.includes('ROOT') ? undefined : auth.user.id,
      type: query.type,
    };
    const [rows, count] = await Promise.all([
      listSecurityEvents(db, filter, {
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
      }),
      countSecurityEvents(db, filter),
    ]);
    const data: SecurityEventItem[] = rows.map((row) => ({
      id: Number(row.id),
      type: row.type,
      user: row.userId !== null ? { id: row.userId, name: row.userName!, email: row.userEmail! } : null,
      ip: row.ip,
      browser: describeUserAgent(row.userAgent).browser,
      detail: row.detail,
      created_at: row.createdAt.toISOString(),
    }));
    return {
      data,
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: count.total,
        ...(count.capped ? { total_capped: true } : {}),
      },
    };
  },
});

/** A stable public handle for a session: never its id, which is the hash the cookie maps to. */
const sessionHandle = (id: string) => sha256Hex(`session-handle|${id}`).slice(0, 16);
