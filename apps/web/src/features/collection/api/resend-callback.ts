import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CallbackEvent,
  ResendCallbackResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';
import { collectionQueryKey } from './get-collection.ts';

/** POST /api/merchant/collections/{trade_no}/notify: the order's latest callback event, queued again. */
export const resendCallback = (tradeNo: string): Promise<CallbackEvent> =>
  http
    .post(`/api/merchant/collections/${encodeURIComponent(tradeNo)}/notify`, undefined, {
      schema: ResendCallbackResponseSchema,
    })
    .then((r) => r.data);

/** Resends and then reads the order again, so the drawer shows the new attempt's state. */
export function useResendCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendCallback,
    onSettled: (_event, _error, tradeNo) =>
      queryClient.invalidateQueries({ queryKey: collectionQueryKey(tradeNo) }),
  });
}
