import type { z } from 'zod';
import { MerchantTwoFactorSecretSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

export type Authenticator = z.infer<typeof MerchantTwoFactorSecretSchema>['data'];

/**
 * GET /api/merchant/two-factor-secret-key: the authenticator to bind (secret, QR code), issuing a new
 * secret when there is none (after a password confirmation).
 */
export const getAuthenticator = (): Promise<Authenticator> =>
  http
    .get('/api/merchant/two-factor-secret-key', { schema: MerchantTwoFactorSecretSchema })
    .then((r) => r.data);
