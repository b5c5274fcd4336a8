import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type PayoutApprovalSettings,
  type PayoutApprovalSettingsBody,
  PayoutApprovalSettingsResponseSchema,
} from '@paydesk/shared/payouts/payout-approval.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';

export type { PayoutApprovalSettings };

export const payoutApprovalQueryKey = ['merchant', 'payout-approval'] as const;

export const payoutApprovalQueryOptions = () =>
  queryOptions({
    queryKey: payoutApprovalQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/payout-approval', { signal, schema: PayoutApprovalSettingsResponseSchema })
        .then((r) => r.data),
  });

/** GET /api/merchant/payout-approval: the thresholds of the mode the console is in (DESIGN 16). */
export const usePayoutApproval = () => useQuery(payoutApprovalQueryOptions());

export type UpdatePayoutApprovalValues = PayoutApprovalSettingsBody & StepUpValues;

/**
 * PUT /api/merchant/payout-approval {payout_approval_threshold, gateway_payout_approval_threshold,
 * payment_password, code}: the saved thresholds, or 422 naming the wrong field.
 */
export const updatePayoutApproval = ({
  payment_password,
  code,
  ...thresholds
}: UpdatePayoutApprovalValues): Promise<PayoutApprovalSettings> =>
  http
    .put(
      '/api/merchant/payout-approval',
      { ...thresholds, ...stepUpBody({ payment_password, code }) },
      { handled: STEP_UP_HANDLED, schema: PayoutApprovalSettingsResponseSchema },
    )
    .then((r) => r.data);

export function useUpdatePayoutApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePayoutApproval,
    onSuccess: (saved) => queryClient.setQueryData(payoutApprovalQueryKey, saved),
  });
}
