import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@paydesk/shared/security/security.schemas.ts';
import { safeEqual } from '../../lib/crypto.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const randomChars = (length: number) =>
  Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Fortify's shape: ten random letters or digits, a dash, ten more. */
export const generateRecoveryCode = (): string => `${randomChars(10)}-${randomChars(10)}`;

export const generateRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);

/** The index of the code in the list, compared in constant time, or -1. */
export function findRecoveryCode(codes: readonly string[], candidate: string): number {
  const wanted = candidate.trim();
  let found = -1;
  codes.forEach((code, index) => {
    if (safeEqual(code, wanted) && found === -1) found = index;
  });
  return found;
}
