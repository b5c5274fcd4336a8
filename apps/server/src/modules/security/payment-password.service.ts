import { ERROR_CODES } from '@paydesk/shared';
import {
  PaymentPasswordBodySchema,
  ResetPaymentPasswordBodySchema,
  SECURITY_MESSAGES,
} from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { type AppError, conflict, ValidationError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { ClientInfo } from '../../plugins/auth-context.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { updateUser, type UserRow } from '../users/index.ts';
import { isTwoFactorEnabled } from './authenticator.ts';
import { guardFailures, perMinute } from './failure-limits.ts';
import {
  checkAuthenticatorCode,
  checkPaymentPassword,
  isPaymentLocked,
  lockUserRow,
  paymentLocked,
  twoFactorRequired,
} from './step-up.ts';
import { parseInput } from './validation.ts';

type Deps = {
  db: Db;
  appKey: Buffer;
  notifications: Pick<NotificationsService, 'notifyRoots' | 'merchantLabel'>;
  now: () => Date;
};

export type PaymentPasswordService = ReturnType<typeof createPaymentPasswordService>;

export const createPaymentPasswordService = ({ db, appKey, notifications, now }: Deps) => {
  // The login password proves who is setting it; wrong ones count like confirm-password's.
  const checkLoginPassword = (user: UserRow, password: string) =>
    guardFailures(db, [perMinute(`password-check:${user.id}`)], async () =>
      (await verifyPassword(user.passwordHash, password))
        ? null
        : ValidationError.field(
            'password',
            SECURITY_MESSAGES.currentPasswordMismatch,
            ERROR_CODES.currentPasswordMismatch,
          ),
    );

  /** The new payment password's hash; it may not be the login password. */
  const newPaymentPasswordHash = async (user: UserRow, paymentPassword: string) => {
    if (await verifyPassword(user.passwordHash, paymentPassword)) {
      throw ValidationError.field(
        'payment_password',
        SECURITY_MESSAGES.paymentPasswordSameAsLogin,
        ERROR_CODES.paymentPasswordSameAsLogin,
      );
    }
    return hashPassword(paymentPassword);
  };

  return {
    /**
     * Sets the payment password the first time (login password + authenticator code) or changes it
     * (current payment password + code). It needs two-factor on, like everything that moves money.
     */
    async set(client: ClientInfo, user: UserRow, input: unknown): Promise<void> {
      if (!isTwoFactorEnabled(user)) throw twoFactorRequired();
      const isChange = user.paymentPasswordHash !== null;
      if (isChange && isPaymentLocked(user)) throw paymentLocked(user.paymentLockedUntil!);
      const body = parseInput(PaymentPasswordBodySchema, input);
      const proof = isChange ? body.current_payment_password : body.password;
      if (!proof) {
        const field = isChange ? 'current_payment_password' : 'password';
        throw ValidationError.field(field, `The ${field.replace(/_/g, ' ')} field is required.`);
      }

      if (!isChange) await checkLoginPassword(user, proof);
      const paymentPasswordHash = await newPaymentPasswordHash(user, body.payment_password);

      const failure = await db.transaction(async (tx): Promise<AppError | null> => {
        const row = await lockUserRow(tx, user.id);
        if (!row || !isTwoFactorEnabled(row)) return twoFactorRequired();
        // Set by another request since this one read the user: only the current payment password changes it.
        if (!isChange && row.paymentPasswordHash !== null) {
          return conflict(
            'The payment password was set meanwhile. Change it with the current payment password.',
            ERROR_CODES.paymentPasswordAlreadySet,
          );
        }
        if (isChange) {
          const wrong = await checkPaymentPassword(tx, row, proof, 'current_payment_password', client);
          if (wrong) return wrong;
        }
        const badCode = await checkAuthenticatorCode(tx, appKey, row, body.code);
        if (badCode) return badCode;
        await updateUser(tx, user.id, {
          paymentPasswordHash,
          paymentPasswordFailures: 0,
          paymentLockedUntil: null,
        });
        await recordSecurityEvent(tx, client, {
          type: isChange ? 'payment_password_changed' : 'payment_password_set',
          merchantId: user.merchantId,
          userId: user.id,
        });
        return null;
      });
      if (failure) throw failure;
    },

    /**
     * A forgotten payment password: the login password and an authenticator code replace it (and lift a
     * lock from wrong payment passwords, which those two stronger factors outrank). Logged.
     */
    async reset(client: ClientInfo, user: UserRow, input: unknown): Promise<void> {
      if (!isTwoFactorEnabled(user)) throw twoFactorRequired();
      const body = parseInput(ResetPaymentPasswordBodySchema, input);
      await checkLoginPassword(user, body.password);
      const paymentPasswordHash = await newPaymentPasswordHash(user, body.payment_password);
      const failure = await db.transaction(async (tx): Promise<AppError | null> => {
        const row = await lockUserRow(tx, user.id);
        if (!row || !isTwoFactorEnabled(row)) return twoFactorRequired();
        const badCode = await checkAuthenticatorCode(tx, appKey, row, body.code);
        if (badCode) return badCode;
        await updateUser(tx, user.id, {
          paymentPasswordHash,
          paymentPasswordFailures: 0,
          paymentLockedUntil: null,
        });
        await recordSecurityEvent(tx, client, {
          type: 'payment_password_reset',
          merchantId: user.merchantId,
          userId: user.id,
          detail: { was_set: row.paymentPasswordHash !== null, was_locked: isPaymentLocked(row) },
        });
        // The ROOT users hear of it (DESIGN 16), in the transaction of the reset.
        await notifications.notifyRoots(tx, {
          merchantId: user.merchantId,
          type: 'payment_password_reset',
          params: {
            merchant: await notifications.merchantLabel(tx, user.merchantId),
            actor: `${user.name} <${user.email}>`,
            at: now().toISOString(),
            user: `${user.name} <${user.email}>`,
          },
        });
        return null;
      });
      if (failure) throw failure;
    },
  };
};
