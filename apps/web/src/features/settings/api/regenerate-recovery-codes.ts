import { RecoveryCodesSchema, type TwoFactorProofBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/user/two-factor-recovery-codes {code | recovery_code}: new codes replace the old ones and are
 * answered, after a password confirmation. 422 errors.code / errors.recovery_code for a wrong one, 429
 * after too many.
 */
export const regenerateRecoveryCodes = (proof: TwoFactorProofBody): Promise<string[]> =>
  http.post('/api/user/two-factor-recovery-codes', proof, {
    schema: RecoveryCodesSchema,
    handled: [422, 429],
  });
