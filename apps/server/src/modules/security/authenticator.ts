import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import type { UserRow } from '../users/users.repository.ts';
import { findRecoveryCode, generateRecoveryCode } from './recovery-codes.ts';
import { matchTotpStep } from './totp.ts';

// The user's one authenticator (DESIGN section 7): it answers the login challenge and is the
// "Google code" of money-moving forms. Its secret and recovery codes are stored encrypted with APP_KEY.

type TwoFactorColumns = Pick<UserRow, 'twoFactorSecret' | 'twoFactorRecoveryCodes'>;

export const readSecret = (appKey: Buffer, user: TwoFactorColumns): string | null =>
  user.twoFactorSecret ? decrypt(appKey, user.twoFactorSecret) : null;

export const sealSecret = (appKey: Buffer, secret: string): string => encrypt(appKey, secret);

export function readRecoveryCodes(appKey: Buffer, user: TwoFactorColumns): string[] {
  if (!user.twoFactorRecoveryCodes) return [];
  const codes: unknown = JSON.parse(decrypt(appKey, user.twoFactorRecoveryCodes));
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : [];
}

export const sealRecoveryCodes = (appKey: Buffer, codes: readonly string[]): string =>
  encrypt(appKey, JSON.stringify(codes));

export const isTwoFactorEnabled = (
  user: Pick<UserRow, 'twoFactorSecret' | 'twoFactorConfirmedAt'>,
): boolean => user.twoFactorSecret !== null && user.twoFactorConfirmedAt !== null;

/**
 * Checks a 6-digit code against the user's secret and spends its time step, so the same code (or an
 * older one) is refused afterwards, even by a request racing this one.
 */
export async function consumeTotpCode(
  db: DbOrTx,
  appKey: Buffer,
  user: Pick<UserRow, 'id' | 'twoFactorSecret' | 'twoFactorLastStep' | 'twoFactorRecoveryCodes'>,
  code: string,
): Promise<boolean> {
  const secret = readSecret(appKey, user);
  if (!secret) return false;
  const step = await matchTotpStep(secret, code, user.twoFactorLastStep);
  if (step === null) return false;
  const advanced = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(
      sql`${users.id} = ${user.id} and (${users.twoFactorLastStep} is null or ${users.twoFactorLastStep} < ${step})`,
    )
    .returning({ id: users.id });
  return advanced.length === 1;
}

/** Spends a recovery code: it works once and a fresh code takes its place (Fortify's behaviour). */
export async function consumeRecoveryCode(
  db: DbOrTx,
  appKey: Buffer,
  userId: number,
  candidate: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        twoFactorSecret: users.twoFactorSecret,
        twoFactorRecoveryCodes: users.twoFactorRecoveryCodes,
      })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!row?.twoFactorSecret) return false;
    const codes = readRecoveryCodes(appKey, row);
    const index = findRecoveryCode(codes, candidate);
    if (index === -1) return false;
    codes[index] = generateRecoveryCode();
    await tx
      .update(users)
      .set({ twoFactorRecoveryCodes: sealRecoveryCodes(appKey, codes), updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return true;
  });
}
