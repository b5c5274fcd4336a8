import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ConsoleRefundBody,
  type RefundDetail,
  RefundDetailResponseSchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { refundsQueryKey } from './get-refunds.ts';

export type { ConsoleRefundBody };

/**
 * The form shows these itself: the step-up refusals (422 also refund_exceeds_amount and
 * insufficient_funds), and 409 invalid_state or out_refund_no_taken.
 */
const REFUND_HANDLED = [...STEP_UP_HANDLED, 409] as const;

/**
 * POST /api/merchant/collections/{trade_no}/refunds: the Refund action of a paid order, with the payment
 * password and Google code (checked by the server with the refund, never before it).
 */
export const createRefund = (
  tradeNo: string,
  { payment_password, code, ...refund }: ConsoleRefundBody,
): Promise<RefundDetail> =>
  http
    .post(
      `/api/merchant/collections/${encodeURIComponent(tradeNo)}/refunds`,
      { ...refund, ...stepUpBody({ payment_password, code }) },
      { handled: REFUND_HANDLED, schema: RefundDetailResponseSchema },
    )
    .then((r) => r.data);

/**
 * Refunds the order; its detail (refunded, refundable), the refunds lists, the balance and the dashboard
 * read again.
 */
export function useCreateRefund(tradeNo: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConsoleRefundBody) => createRefund(tradeNo, body),
    onSuccess: () =>
      Promise.all(
        [
          // The collections' list api (components/list-page/list-api.ts): its list and the order's detail.
          ['merchant', 'collections'],
          refundsQueryKey,
          ['merchant', 'balance'],
          ['merchant', 'dashboard'],
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
