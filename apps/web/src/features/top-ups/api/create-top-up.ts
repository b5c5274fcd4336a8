import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CreateTopUpFields,
  type TopUp,
  TopUpResponseSchema,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { http } from '../../../lib/http.ts';
import { topUpsQueryKey } from './get-top-ups.ts';

/** The form shows these under its fields: a refused screenshot (413, 415, 422) or amount. */
export const TOP_UP_HANDLED = [413, 415, 422] as const;

/** POST /api/merchant/recharges as multipart: the fields and the screenshot file. */
export const createTopUp = ({
  screenshot,
  ...fields
}: CreateTopUpFields & { screenshot: File }): Promise<TopUp> => {
  const form = new FormData();
  form.append('amount', fields.amount);
  form.append('currency', fields.currency);
  form.append('network', fields.network);
  form.append('screenshot', screenshot, screenshot.name);
  return http
    .post('/api/merchant/recharges', form, { handled: TOP_UP_HANDLED, schema: TopUpResponseSchema })
    .then((r) => r.data);
};

/** Sends the top-up; the history reads its list again. */
export function useCreateTopUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTopUp,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: topUpsQueryKey }),
  });
}
