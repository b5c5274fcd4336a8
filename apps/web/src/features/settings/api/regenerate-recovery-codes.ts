import { http } from '../../../lib/http.ts';

/** POST /api/user/two-factor-recovery-codes: new codes replace the old ones (after a password confirmation). */
export const regenerateRecoveryCodes = (): Promise<void> => http.post('/api/user/two-factor-recovery-codes');
