import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import {
  type ConsolePayoutBody,
  type PayoutDetail,
  PayoutDetailResponseSchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody } from '../../../components/step-up-fields.tsx';
import { type HttpError, http, isHttpError } from '../../../lib/http.ts';
import { payoutChannelsQueryKey } from './get-payout-channels.ts';
import { payoutsQueryKey } from './get-payouts.ts';

export type { ConsolePayoutBody };

/** The form shows these itself: the step-up refusals, and 409 possible_duplicate (asked, then sent again). */
const PAYOUT_HANDLED = [...STEP_UP_HANDLED, 409] as const;

/**
 * POST /api/merchant/payouts: the form with the payment password and Google code (checked by the server
 * with the payout, never before it); `confirm_duplicate: true` after the near-duplicate prompt.
 */
export const createPayout = ({
  payment_password,
  code,
  ...payout
}: ConsolePayoutBody): Promise<PayoutDetail> =>
  http
    .post(
      '/api/merchant/payouts',
      { ...payout, ...stepUpBody({ payment_password, code }) },
      { handled: PAYOUT_HANDLED, schema: PayoutDetailResponseSchema },
    )
    .then((r) => r.data);

/** 409: a payout of this amount to this account was sent in the last 10 minutes. */
export const isPossibleDuplicate = (error: unknown): error is HttpError =>
  isHttpError(error) && error.code === ERROR_CODES.possibleDuplicate;

/** Sends the payout; the history, the channels' available balance and the dashboard read again. */
export function useCreatePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPayout,
    // Not awaited: the page moves on to the history, which reads its list anyway.
    onSuccess: () => {
      for (const queryKey of [
        payoutsQueryKey,
        payoutChannelsQueryKey,
        ['merchant', 'balance'],
        ['merchant', 'dashboard'],
        ['merchant', 'limits'],
      ])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
}
