import type { DbOrTx, Tx } from '../../db/client.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { advanceTotpStep, lockUserForUpdate, updateUser, type UserRow } from '../users/index.ts';
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
  return advanceTotpStep(db, user.id, step);
}

/**
 * Spends a recovery code: it works once and a fresh code takes its place (Fortify's behaviour). Runs in the
 * caller's transaction, which holds the user's row until it commits with the code's security event.
 */
export async function consumeRecoveryCode(
  tx: Tx,
  appKey: Buffer,
  userId: number,
  candidate: string,
): Promise<boolean> {
  const row = await lockUserForUpdate(tx, userId);
  if (!row?.twoFactorSecret) return false;
  const codes = readRecoveryCodes(appKey, row);
  const index = findRecoveryCode(codes, candidate);
  if (index === -1) return false;
  codes[index] = generateRecoveryCode();
  await updateUser(tx, userId, { twoFactorRecoveryCodes: sealRecoveryCodes(appKey, codes) });
  return true;
}
