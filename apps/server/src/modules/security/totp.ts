import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { TOTP_CODE_PATTERN } from '@paydesk/shared/security/security.schemas.ts';

export const TOTP_ISSUER = 'Paydesk';
export const TOTP_PERIOD_SECONDS = 30;

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommendation). */
export const generateTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URL an authenticator app scans: issuer Paydesk, account the user's email. */
export const totpUrl = (email: string, secret: string): string =>
  generateURI({ issuer: TOTP_ISSUER, label: email, secret });

export const qrCodeSvg = (url: string): Promise<string> =>
  QRCode.toString(url, { type: 'svg', margin: 1, width: 192, errorCorrectionLevel: 'M' });

/**
 * The time step a code belongs to when it is valid now, allowing one step of clock drift either way
 * and refusing every step at or before the last one accepted (a code works once); null otherwise.
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  lastAcceptedStep: number | null,
): Promise<number | null> {
  const token = code.trim();
  if (!TOTP_CODE_PATTERN.test(token)) return null;
  try {
    const result = await verify({
      secret,
      token,
      epochTolerance: TOTP_PERIOD_SECONDS,
      ...(lastAcceptedStep !== null ? { afterTimeStep: lastAcceptedStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // otplib refuses an afterTimeStep beyond the window (a clock that went backwards): refuse the code.
    return null;
  }
}
