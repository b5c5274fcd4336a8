import { http, type RequestOptions } from '../../../lib/http.ts';

/** DELETE /api/user/two-factor-authentication: two-factor off. 423 until the password is confirmed. */
export const disableTwoFactor = (options?: RequestOptions): Promise<void> =>
  http.delete<void>('/api/user/two-factor-authentication', undefined, options);
