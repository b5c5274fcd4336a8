import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetPaymentPasswordBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';
import { userMetaQueryKey } from './get-user-meta.ts';

/**
 * POST /api/merchant/payment-password/reset: a forgotten payment password, replaced with the login password
 * and a Google code (it also lifts a lock from wrong payment passwords). 422 per field.
 */
export const resetPaymentPassword = (input: ResetPaymentPasswordBody): Promise<void> =>
  http.post('/api/merchant/payment-password/reset', input, { handled: [400, 422, 423, 429] });

export function useResetPaymentPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPaymentPassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userMetaQueryKey }),
  });
}
