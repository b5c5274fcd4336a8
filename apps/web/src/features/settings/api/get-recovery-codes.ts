import { RecoveryCodesSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/** GET /api/user/two-factor-recovery-codes: the 8 codes (logged as viewed), after a password confirmation. */
export const getRecoveryCodes = (): Promise<string[]> =>
  http.get('/api/user/two-factor-recovery-codes', { schema: RecoveryCodesSchema });
