import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PaymentPasswordBodySchema, SECURITY_MESSAGES } from '@paydesk/shared/security/security.schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { type AppError, conflict, ValidationError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { UserRow } from '../users/users.repository.ts';
import { isTwoFactorEnabled } from './authenticator.ts';
import { guardFailures } from './failure-limits.ts';
import { securityEventsRepository } from './security-events.repository.ts';
import {
  checkAuthenticatorCode,
  checkPaymentPassword,
  isPaymentLocked,
  lockUserRow,
  paymentLocked,
  twoFactorRequired,
} from './step-up.ts';
import { parseInput } from './validation.ts';

type Deps = { db: Db; appKey: Buffer };

export type PaymentPasswordService = ReturnType<typeof createPaymentPasswordService>;

export const createPaymentPasswordService = ({ db, appKey }: Deps) => ({
  /**
   * Sets the payment password the first time (login password + authenticator code) or changes it
   * (current payment password + code). It needs two-factor on, like everything that moves money.
   */
  async set(request: FastifyRequest, user: UserRow, input: unknown): Promise<void> {
    if (!isTwoFactorEnabled(user)) throw twoFactorRequired();
    const isChange = user.paymentPasswordHash !== null;
    if (isChange && isPaymentLocked(user)) throw paymentLocked(user.paymentLockedUntil!);
    const body = parseInput(PaymentPasswordBodySchema, input);
    const proof = isChange ? body.current_payment_password : body.password;
    if (!proof) {
      const field = isChange ? 'current_payment_password' : 'password';
      throw ValidationError.field(field, `The ${field.replace(/_/g, ' ')} field is required.`);
    }

    if (!isChange) {
      // The login password proves who is setting it; wrong ones count like confirm-password's.
      await guardFailures(db, `password-check:${user.id}`, async () =>
        (await verifyPassword(user.passwordHash, proof))
          ? null
          : ValidationError.field('password', SECURITY_MESSAGES.currentPasswordMismatch),
      );
    }
    if (await verifyPassword(user.passwordHash, body.payment_password)) {
      throw ValidationError.field('payment_password', SECURITY_MESSAGES.paymentPasswordSameAsLogin);
    }
    const paymentPasswordHash = await hashPassword(body.payment_password);

    const failure = await db.transaction(async (tx): Promise<AppError | null> => {
      const row = await lockUserRow(tx, user.id);
      if (!row || !isTwoFactorEnabled(row)) return twoFactorRequired();
      // Set by another request since this one read the user: only the current payment password changes it.
      if (!isChange && row.paymentPasswordHash !== null) {
        return conflict(
          'The payment password was set meanwhile. Change it with the current payment password.',
        );
      }
      if (isChange) {
        const wrong = await checkPaymentPassword(tx, row, proof, 'current_payment_password', request);
        if (wrong) return wrong;
      }
      const badCode = await checkAuthenticatorCode(tx, appKey, row, body.code);
      if (badCode) return badCode;
      await tx
        .update(users)
        .set({
          paymentPasswordHash,
          paymentPasswordFailures: 0,
          paymentLockedUntil: null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id));
      await securityEventsRepository.record(tx, request, {
        type: isChange ? 'payment_password_changed' : 'payment_password_set',
        merchantId: user.merchantId,
        userId: user.id,
      });
      return null;
    });
    if (failure) throw failure;
  },
});
