import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import {
  type ConsoleRefundBody,
  type RefundDetail,
  RefundDetailResponseSchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody } from '../../../components/step-up-fields.tsx';
import { http, isHttpError } from '../../../lib/http.ts';
import { refundsQueryKey } from './get-refunds.ts';

export type { ConsoleRefundBody };

/**
 * The form shows these itself: the step-up refusals (422 also refund_exceeds_amount and
 * insufficient_funds), and 409 invalid_state or out_refund_no_taken.
 */
const REFUND_HANDLED = [...STEP_UP_HANDLED, 409] as const;

/** Refusals that say the drawer's figures are out of date. */
const STALE_ORDER_CODES = new Set<string>([ERROR_CODES.refundExceedsAmount, ERROR_CODES.invalidState]);

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
  // The collections' list api (components/list-page/list-api.ts): its list and the order's detail.
  const collectionsKey = ['merchant', 'collections'];
  return useMutation({
    mutationFn: (body: ConsoleRefundBody) => createRefund(tradeNo, body),
    onSuccess: () =>
      Promise.all(
        [collectionsKey, refundsQueryKey, ['merchant', 'balance'], ['merchant', 'dashboard']].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
    // The order changed since the drawer read it (another refund, a state of its own): read it again, so
    // the figures and the form's limit are the server's.
    onError: (error) => {
      if (isHttpError(error) && error.code && STALE_ORDER_CODES.has(error.code)) {
        void queryClient.invalidateQueries({ queryKey: collectionsKey });
        void queryClient.invalidateQueries({ queryKey: refundsQueryKey });
      }
    },
  });
}
