import { http, type RequestOptions } from '../../../lib/http.ts';

/** POST /api/user/two-factor-recovery-codes: new codes replace the old ones. 423 until confirmed. */
export const regenerateRecoveryCodes = (options?: RequestOptions): Promise<void> =>
  http.post<void>('/api/user/two-factor-recovery-codes', undefined, options);
