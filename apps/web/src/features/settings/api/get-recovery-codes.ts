import { http, type RequestOptions } from '../../../lib/http.ts';

/** GET /api/user/two-factor-recovery-codes: the 8 codes (logged as viewed). 423 until confirmed. */
export const getRecoveryCodes = (options?: RequestOptions): Promise<string[]> =>
  http.get<string[]>('/api/user/two-factor-recovery-codes', options);
