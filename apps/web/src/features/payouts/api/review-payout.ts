import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type PayoutDetail, PayoutDetailResponseSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import type { RejectPayoutBody } from '@paydesk/shared/payouts/payout-approval.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { payoutsQueryKey } from './get-payouts.ts';

/** The dialogs show these themselves: the step-up's refusals, 403 maker_cannot_approve, 409 (decided meanwhile). */
const REVIEW_HANDLED = [...STEP_UP_HANDLED, 403, 409] as const;

const path = (tradeNo: string, action: 'approve' | 'reject') =>
  `/api/merchant/payouts/${encodeURIComponent(tradeNo)}/${action}`;

/** POST /api/merchant/payouts/{trade_no}/approve {payment_password, code} (DESIGN 16): sent on to its channel. */
export const approvePayout = (tradeNo: string, factors: StepUpValues): Promise<PayoutDetail> =>
  http
    .post(path(tradeNo, 'approve'), stepUpBody(factors), {
      handled: REVIEW_HANDLED,
      schema: PayoutDetailResponseSchema,
    })
    .then((r) => r.data);

/** POST /api/merchant/payouts/{trade_no}/reject {reason}: rejected, its hold back in available. */
export const rejectPayout = (tradeNo: string, body: RejectPayoutBody): Promise<PayoutDetail> =>
  http
    .post(path(tradeNo, 'reject'), body, { handled: REVIEW_HANDLED, schema: PayoutDetailResponseSchema })
    .then((r) => r.data);

/** Either decision changes the list, the detail, the balance and the Dashboard's waiting count. */
function useReview<Body>(call: (tradeNo: string, body: Body) => Promise<PayoutDetail>, tradeNo: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all(
      [payoutsQueryKey, ['merchant', 'balance'], ['merchant', 'dashboard']].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  return useMutation({
    mutationFn: (body: Body) => call(tradeNo, body),
    onSuccess: refresh,
    // Decided by someone else meanwhile: the drawer reads what happened.
    onError: () => void queryClient.invalidateQueries({ queryKey: payoutsQueryKey }),
  });
}

export const useApprovePayout = (tradeNo: string) => useReview(approvePayout, tradeNo);
export const useRejectPayout = (tradeNo: string) => useReview(rejectPayout, tradeNo);
