import { http } from '../../../lib/http.ts';

/** DELETE /api/user/two-factor-authentication: two-factor off (after a password confirmation). */
export const disableTwoFactor = (): Promise<void> => http.delete('/api/user/two-factor-authentication');
