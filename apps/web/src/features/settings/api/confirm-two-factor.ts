import { useMutation } from '@tanstack/react-query';
import { http, type RequestOptions } from '../../../lib/http.ts';

/**
 * POST /api/merchant/confirmed-two-factor-authentication: a code from the authenticator turns two-factor
 * on and answers the recovery codes, shown once. 422 errors.code for a wrong code.
 */
export const confirmTwoFactor = (code: string, options?: RequestOptions): Promise<string[]> =>
  http
    .post<{
      data: { two_factor_enabled: true; recovery_codes: string[] };
    }>('/api/merchant/confirmed-two-factor-authentication', { code }, options)
    .then((r) => r.data.recovery_codes);

export const useConfirmTwoFactor = () =>
  useMutation({
    mutationFn: (code: string) => confirmTwoFactor(code, { handled: [422, 423, 429] }),
  });
