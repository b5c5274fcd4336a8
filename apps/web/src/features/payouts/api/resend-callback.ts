import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CallbackEvent,
  ResendCallbackResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';
import { payoutQueryOptions } from './get-payout.ts';

/** POST /api/merchant/payouts/{trade_no}/notify: the payout's latest callback event, queued again. */
export const resendPayoutCallback = (tradeNo: string): Promise<CallbackEvent> =>
  http
    .post(`/api/merchant/payouts/${encodeURIComponent(tradeNo)}/notify`, undefined, {
      schema: ResendCallbackResponseSchema,
    })
    .then((r) => r.data);

/** Resends and then reads the payout again, so the drawer shows the new attempt's state. */
export function useResendPayoutCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendPayoutCallback,
    onSettled: (_event, _error, tradeNo) =>
      queryClient.invalidateQueries({ queryKey: payoutQueryOptions(tradeNo).queryKey }),
  });
}
