import { RecoveryCodesSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * GET /api/user/two-factor-recovery-codes?code=: the 8 codes (logged as viewed), after a password
 * confirmation and with the authenticator's current code (DESIGN section 5). 422 errors.code for a
 * missing, wrong or used code, 429 after too many.
 */
export const getRecoveryCodes = (code: string): Promise<string[]> =>
  http.get('/api/user/two-factor-recovery-codes', {
    query: { code },
    schema: RecoveryCodesSchema,
    handled: [422, 429],
  });
