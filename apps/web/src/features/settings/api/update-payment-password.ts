import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentPasswordBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';
import { userMetaQueryKey } from './get-user-meta.ts';

export type { PaymentPasswordBody };

/**
 * PUT /api/merchant/payment-password: 400 two_factor_required when two-factor is off, 422 per field,
 * 423 while payments are locked after wrong payment passwords.
 */
export const updatePaymentPassword = (input: PaymentPasswordBody): Promise<void> =>
  http.put('/api/merchant/payment-password', input, {
    handled: [400, 422, 423, 429],
  });

export function useUpdatePaymentPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaymentPassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userMetaQueryKey }),
  });
}
