import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type BulkResendCallbacksBody,
  BulkResendCallbacksResponseSchema,
} from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { http } from '../../../lib/http.ts';
import { undeliveredCallbacksApi } from './get-undelivered-callbacks.ts';

/**
 * POST /api/merchant/callbacks/resend {type?, from, to}: every matching undelivered event goes out again
 * (at most 1,000 a call; `has_more` says when more match). An event already queued is not queued twice.
 */
export const resendMatchingCallbacks = (body: BulkResendCallbacksBody) =>
  http
    .post('/api/merchant/callbacks/resend', body, { schema: BulkResendCallbacksResponseSchema })
    .then((r) => r.data);

export function useResendMatchingCallbacks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendMatchingCallbacks,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: undeliveredCallbacksApi.queryKey }),
  });
}
