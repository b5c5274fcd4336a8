import { useMutation } from '@tanstack/react-query';
import { MerchantTwoFactorConfirmedSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/merchant/confirmed-two-factor-authentication: a code from the authenticator turns two-factor
 * on and answers the recovery codes, shown once. 422 errors.code for a wrong code.
 */
export const confirmTwoFactor = (code: string): Promise<string[]> =>
  http
    .post(
      '/api/merchant/confirmed-two-factor-authentication',
      { code },
      { handled: [422, 429], schema: MerchantTwoFactorConfirmedSchema },
    )
    .then((r) => r.data.recovery_codes);

export const useConfirmTwoFactor = () => useMutation({ mutationFn: confirmTwoFactor });
