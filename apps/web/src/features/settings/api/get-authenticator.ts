import { http, type RequestOptions } from '../../../lib/http.ts';

export type Authenticator = {
  secretKey: string;
  svg: string;
  url: string;
  confirmed: boolean;
};

/**
 * GET /api/merchant/two-factor-secret-key: the authenticator to bind (secret, QR code), issuing a new
 * secret when there is none. 423 until the password is confirmed.
 */
export const getAuthenticator = (options?: RequestOptions): Promise<Authenticator> =>
  http.get<{ data: Authenticator }>('/api/merchant/two-factor-secret-key', options).then((r) => r.data);
