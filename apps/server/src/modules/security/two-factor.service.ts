import { ERROR_CODES } from '@paydesk/shared';
import {
  SECURITY_MESSAGES,
  type SecurityEventType,
  type TwoFactorChallengeBody,
  TwoFactorCodeBodySchema,
  TwoFactorProofBodySchema,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { AppError, notFound, ValidationError } from '../../lib/errors.ts';
import { clearRateLimit, releaseRateLimit } from '../../db/rate-limits.ts';
import type { AuthContext, ClientInfo } from '../../plugins/auth-context.ts';
import { endOtherSessions, recordSignIn } from '../auth/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { findUserById, lockUserForUpdate, updateUser, type UserRow } from '../users/index.ts';
import {
  consumeRecoveryCode,
  consumeTotpCode,
  isTwoFactorEnabled,
  readRecoveryCodes,
  readSecret,
  sealRecoveryCodes,
  sealSecret,
} from './authenticator.ts';
import {
  codeFailureLimits,
  codeFailuresPerDay,
  type FailureLimit,
  guardFailures,
  hitLimits,
} from './failure-limits.ts';
import { generateRecoveryCodes } from './recovery-codes.ts';
import { generateTotpSecret, qrCodeSvg, totpUrl } from './totp.ts';
import { parseInput } from './validation.ts';

type Deps = {
  db: Db;
  appKey: Buffer;
  notifications: Pick<NotificationsService, 'notifyRoots' | 'merchantLabel'>;
  now: () => Date;
};
/** The signed-in user changing their authenticator, and the session that stays when the others end. */
type Holder = Pick<AuthContext, 'user' | 'sessionId'>;

export const CHALLENGE_TRIES_PER_MINUTE = 5;
/** Wrong challenge codes an account takes from all IPs together per hour (per day: CODE_FAILURES_PER_DAY). */
export const CHALLENGE_FAILURES_PER_HOUR = 100;

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export const createTwoFactorService = ({ db, appKey, notifications, now }: Deps) => {
  // Each change of the user's two-factor settings and its security event commit together (tx).
  const record = (
    tx: DbOrTx,
    client: ClientInfo,
    user: UserRow,
    type: SecurityEventType,
    detail?: Record<string, unknown>,
  ) =>
    recordSecurityEvent(tx, client, {
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

  /**
   * The secret of a setup in progress. A confirmed authenticator's secret is never shown again (DESIGN
   * section 5): it would give whoever holds the session and the password the codes that prove the holder.
   */
  const pendingSecret = (user: UserRow): string | null => {
    if (isTwoFactorEnabled(user))
      throw new AppError(404, SECURITY_MESSAGES.secretNotShownAgain, {
        code: ERROR_CODES.twoFactorAlreadyConfirmed,
      });
    return readSecret(appKey, user);
  };

  const qrCodeOf = async (user: UserRow, secret: string) => {
    const url = totpUrl(user.email, secret);
    return { svg: await qrCodeSvg(url), url };
  };

  const invalidCode = () =>
    ValidationError.field('code', SECURITY_MESSAGES.invalidCode, ERROR_CODES.invalidCode);

  /**
   * A right code turns two-factor on: the code is spent in the transaction of the change and its event, so
   * a failed commit leaves the code usable. A wrong one is 422 errors.code and counts like every wrong code.
   * On a user already confirmed, `showsRecoveryCodes` logs the view the caller is about to give.
   */
  const confirmCode = async (
    client: ClientInfo,
    user: UserRow,
    code: string,
    showsRecoveryCodes: boolean,
  ) => {
    if (!user.twoFactorSecret) throw invalidCode();
    await guardFailures(db, codeFailureLimits(user.id), async () => {
      const isRight = await db.transaction(async (tx) => {
        if (!(await consumeTotpCode(tx, appKey, user, code))) return false;
        if (!user.twoFactorConfirmedAt) {
          await updateUser(tx, user.id, { twoFactorConfirmedAt: new Date() });
          await record(tx, client, user, 'two_factor_enabled');
        } else if (showsRecoveryCodes) {
          await record(tx, client, user, 'recovery_codes_viewed');
        }
        return true;
      });
      return isRight ? null : invalidCode();
    });
  };

  const issueSecret = (tx: DbOrTx, userId: number) =>
    updateUser(tx, userId, {
      twoFactorSecret: sealSecret(appKey, generateTotpSecret()),
      twoFactorRecoveryCodes: sealRecoveryCodes(appKey, generateRecoveryCodes()),
      twoFactorConfirmedAt: null,
      twoFactorLastStep: null,
    });

  /**
   * Runs `work` as the holder of the user's authenticator. A confirmed one takes a current code of it, or a
   * recovery code where `allowsRecoveryCode` (`input`), not the password alone that a stolen session may
   * also have (DESIGN section 5). The code is spent in the transaction of the work, which holds the user's
   * row, so a failed commit leaves it usable; a wrong code does nothing and counts like every wrong code
   * (5 a minute, the day's ceiling), and a missing one is 422 errors.code. Without a confirmed authenticator
   * (none, or a setup never finished) there is nothing to prove: `work` gets method null.
   */
  const asHolder = async <T>(
    user: UserRow,
    input: Record<string, unknown>,
    allowsRecoveryCode: boolean,
    work: (tx: Tx, row: UserRow, method: ProofMethod | null) => Promise<T>,
  ): Promise<T> => {
    if (!isTwoFactorEnabled(user)) {
      const unproven = await db.transaction(async (tx) => {
        const row = await lockUserForUpdate(tx, user.id);
        // Confirmed in the meantime: from now on only its holder may go on.
        return row && !isTwoFactorEnabled(row) ? { result: await work(tx, row, null) } : undefined;
      });
      if (unproven) return unproven.result;
    }
    const proof = allowsRecoveryCode
      ? parseInput(TwoFactorProofBodySchema, input)
      : parseInput(TwoFactorCodeBodySchema, input);
    const recoveryCode = 'recovery_code' in proof ? proof.recovery_code : undefined;
    const usesRecoveryCode = recoveryCode !== undefined;
    let result: T | undefined;
    await guardFailures(db, codeFailureLimits(user.id), async () => {
      const isHolder = await db.transaction(async (tx) => {
        const row = await lockUserForUpdate(tx, user.id);
        if (!row || !isTwoFactorEnabled(row)) return false;
        const isValid = usesRecoveryCode
          ? await consumeRecoveryCode(tx, appKey, user.id, recoveryCode)
          : await consumeTotpCode(tx, appKey, row, proof.code!);
        if (!isValid) return false;
        result = await work(tx, row, method(usesRecoveryCode));
        return true;
      });
      return isHolder ? null : refusal(usesRecoveryCode);
    });
    return result as T;
  };

  /**
   * Changes the user's authenticator (off, or a new secret): a confirmed one only its holder may change
   * (asHolder). Then the user's other sessions end and the event is written in the transaction of the
   * change; without a confirmed authenticator no session ends.
   */
  const changeAuthenticator = <T>(
    client: ClientInfo,
    { user, sessionId }: Holder,
    input: Record<string, unknown>,
    change: (tx: Tx) => Promise<T>,
    detail: Record<string, unknown> = {},
  ): Promise<T> =>
    asHolder(user, input, true, async (tx, _row, proven) => {
      const result = await change(tx);
      if (!proven) return result;
      const ended = await endOtherSessions(tx, user.id, sessionId);
      await record(tx, client, user, 'two_factor_disabled', {
        ...detail,
        method: proven,
        other_sessions_ended: ended,
      });
      // The ROOT users hear of it (DESIGN 16): a confirmed authenticator is off (removed, or replaced by
      // one not yet confirmed), once, with its security event.
      await notifications.notifyRoots(tx, {
        merchantId: user.merchantId,
        type: 'two_factor_disabled',
        params: {
          merchant: await notifications.merchantLabel(tx, user.merchantId),
          actor: `${user.name} <${user.email}>`,
          at: now().toISOString(),
          user: `${user.name} <${user.email}>`,
        },
      });
      return result;
    });

  /**
   * Fortify's enable: a new secret and 8 recovery codes, unconfirmed until a code proves the
   * authenticator has it. An existing secret is kept unless `force` asks for a new one; replacing a
   * confirmed one takes its code (changeAuthenticator).
   */
  const enable = async (
    client: ClientInfo,
    holder: Holder,
    force: boolean,
    input: Record<string, unknown> = {},
  ): Promise<UserRow> => {
    if (holder.user.twoFactorSecret && !force) return holder.user;
    return changeAuthenticator(client, holder, input, (tx) => issueSecret(tx, holder.user.id), {
      reason: 'new_secret',
    });
  };

  return {
    enable,

    /** {svg, url} of the pending secret, or Fortify's [] when no secret was issued; 404 once confirmed. */
    async qrCode(user: UserRow): Promise<{ svg: string; url: string } | []> {
      const secret = pendingSecret(user);
      return secret ? qrCodeOf(user, secret) : [];
    },

    /** The pending secret; 404 when none, or once confirmed. */
    secretKey(user: UserRow): { secretKey: string } {
      const secret = pendingSecret(user);
      if (!secret) throw notFound(SECURITY_MESSAGES.twoFactorNotEnabled);
      return { secretKey: secret };
    },

    /**
     * The secret to bind and its QR code, issuing a secret first when there is none; 404 once confirmed
     * (then `confirmed` is always false: kept for the console that reads it).
     */
    async authenticatorToBind(user: UserRow) {
      pendingSecret(user);
      const current = user.twoFactorSecret ? user : await issueSecret(db, user.id);
      const secret = requireSecret(current);
      return { secretKey: secret, ...(await qrCodeOf(current, secret)), confirmed: false };
    },

    /** Fortify's confirm: a code from the authenticator turns two-factor on; 422 errors.code otherwise. */
    confirm: (client: ClientInfo, user: UserRow, code: string): Promise<void> =>
      confirmCode(client, user, code, false),

    /** The console's confirm, answering the recovery codes: shown again to a confirmed user, that is logged. */
    async confirmAndShowRecoveryCodes(client: ClientInfo, user: UserRow, code: string): Promise<string[]> {
      await confirmCode(client, user, code, true);
      return readRecoveryCodes(appKey, user);
    },

    /**
     * The recovery codes; Fortify answers [] when there are none. A confirmed authenticator's take its
     * current `code` (asHolder; a recovery code would be spent to read the others). The view is logged.
     */
    async recoveryCodes(
      client: ClientInfo,
      user: UserRow,
      input: Record<string, unknown>,
    ): Promise<string[]> {
      if (!user.twoFactorSecret || !user.twoFactorRecoveryCodes) return [];
      return asHolder(user, input, false, async (tx, row) => {
        if (!row.twoFactorSecret || !row.twoFactorRecoveryCodes) return [];
        await record(tx, client, user, 'recovery_codes_viewed');
        return readRecoveryCodes(appKey, row);
      });
    },

    /**
     * New recovery codes replace the old ones and are answered. A confirmed authenticator's take its current
     * `code` or a `recovery_code` (asHolder); the event names which.
     */
    async regenerateRecoveryCodes(
      client: ClientInfo,
      user: UserRow,
      input: Record<string, unknown>,
    ): Promise<string[]> {
      requireSecret(user);
      return asHolder(user, input, true, async (tx, row, proven) => {
        requireSecret(row);
        const codes = generateRecoveryCodes();
        await updateUser(tx, user.id, {
          twoFactorRecoveryCodes: sealRecoveryCodes(appKey, codes),
        });
        await record(tx, client, user, 'recovery_codes_regenerated', proven ? { method: proven } : undefined);
        return codes;
      });
    },

    /** Fortify's disable: two-factor off, the secret and recovery codes gone (changeAuthenticator's rules). */
    async disable(client: ClientInfo, holder: Holder, input: Record<string, unknown>): Promise<void> {
      if (!holder.user.twoFactorSecret) return;
      await changeAuthenticator(client, holder, input, async (tx) => {
        await updateUser(tx, holder.user.id, {
          twoFactorSecret: null,
          twoFactorRecoveryCodes: null,
          twoFactorConfirmedAt: null,
          twoFactorLastStep: null,
        });
      });
    },

    /**
     * The second step of a login with two-factor: a valid code or recovery code answers the user to sign
     * in (the route starts the session under a new id). Without a pending login, 422 as Fortify answers.
     */
    async challenge(
      client: ClientInfo,
      pendingUserId: number | null | undefined,
      body: TwoFactorChallengeBody,
    ): Promise<UserRow> {
      const usesRecoveryCode = body.recovery_code !== undefined;
      const refuse = () => refusal(usesRecoveryCode);
      if (!pendingUserId) throw refuse();

      // 5 tries a minute per user and IP, so someone who knows the password cannot lock the real user
      // out from elsewhere; and ceilings per account from any IP, counted before the check (tries sent
      // together cannot all pass a count read before any failed) and given back when right. The day's
      // ceiling also counts this account's wrong codes typed anywhere else.
      const throttleKey = `two-factor-challenge:${pendingUserId}|${client.ip ?? ''}`;
      const ceilings: FailureLimit[] = [
        [`two-factor-challenge-failures:${pendingUserId}`, CHALLENGE_FAILURES_PER_HOUR, 3600],
        codeFailuresPerDay(pendingUserId),
      ];
      await hitLimits(db, [[throttleKey, CHALLENGE_TRIES_PER_MINUTE, 60], ...ceilings]);

      const user = await findUserById(db, pendingUserId);
      let isValid = false;
      if (user && isTwoFactorEnabled(user)) {
        // The spent recovery code and its event commit together: never a code gone without its event.
        if (usesRecoveryCode)
          isValid = await db.transaction(async (tx) => {
            if (!(await consumeRecoveryCode(tx, appKey, user.id, body.recovery_code!))) return false;
            await record(tx, client, user, 'recovery_code_used');
            return true;
          });
        else if (body.code !== undefined) isValid = await consumeTotpCode(db, appKey, user, body.code);
      }
      if (!user || !isValid) {
        if (user)
          await record(db, client, user, 'two_factor_challenge_failed', { method: method(usesRecoveryCode) });
        throw refuse();
      }

      await clearRateLimit(db, throttleKey);
      for (const [key] of ceilings) await releaseRateLimit(db, key);
      return user;
    },

    /** The login event of a passed challenge, once its session exists. */
    recordLogin: (client: ClientInfo, user: UserRow, usesRecoveryCode: boolean) =>
      recordSignIn({ db, notifications, now }, client, user, { two_factor: method(usesRecoveryCode) }),
  };
};

type ProofMethod = 'recovery_code' | 'code';
const method = (usesRecoveryCode: boolean): ProofMethod => (usesRecoveryCode ? 'recovery_code' : 'code');

/** 422 under the field that was sent: errors.code or errors.recovery_code. */
const refusal = (usesRecoveryCode: boolean) =>
  usesRecoveryCode
    ? ValidationError.field(
        'recovery_code',
        SECURITY_MESSAGES.invalidRecoveryCode,
        ERROR_CODES.invalidRecoveryCode,
      )
    : ValidationError.field('code', SECURITY_MESSAGES.invalidCode, ERROR_CODES.invalidCode);
