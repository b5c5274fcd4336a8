import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ResendOneCallbackResponseSchema } from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { http } from '../../../lib/http.ts';
import { undeliveredCallbacksApi } from './get-undelivered-callbacks.ts';

/** POST /api/merchant/callbacks/{event_id}/resend: the event goes out again under its webhook-id. */
export const resendCallback = (eventId: string) =>
  http
    .post(`/api/merchant/callbacks/${encodeURIComponent(eventId)}/resend`, undefined, {
      schema: ResendOneCallbackResponseSchema,
    })
    .then((r) => r.data);

export function useResendCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendCallback,
    // Its next attempt is now: the row shows it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: undeliveredCallbacksApi.queryKey }),
  });
}
