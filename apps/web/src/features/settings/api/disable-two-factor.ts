import type { TwoFactorProofBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * DELETE /api/user/two-factor-authentication {code | recovery_code}: two-factor off, and every other session
 * of the user ends. 422 errors.code / errors.recovery_code for a wrong one, 429 after too many; a lapsed
 * password confirmation (423) makes the HTTP client ask for the password and send it again.
 */
export const disableTwoFactor = (proof: TwoFactorProofBody): Promise<void> =>
  http.delete('/api/user/two-factor-authentication', proof, { handled: [422, 429] });
