import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CreateRechargeFields,
  type Recharge,
  RechargeResponseSchema,
} from '@paydesk/shared/recharges/recharges.schemas.ts';
import { http } from '../../../lib/http.ts';
import { rechargesQueryKey } from './get-recharges.ts';

/** The form shows these under its fields: a refused screenshot (413, 415, 422) or amount. */
export const RECHARGE_HANDLED = [413, 415, 422] as const;

/** POST /api/merchant/recharges as multipart: the fields and the screenshot file. */
export const createRecharge = ({
  screenshot,
  ...fields
}: CreateRechargeFields & { screenshot: File }): Promise<Recharge> => {
  const form = new FormData();
  form.append('amount', fields.amount);
  form.append('currency', fields.currency);
  form.append('network', fields.network);
  form.append('screenshot', screenshot, screenshot.name);
  return http
    .post('/api/merchant/recharges', form, { handled: RECHARGE_HANDLED, schema: RechargeResponseSchema })
    .then((r) => r.data);
};

/** Sends the top-up; the history reads its list again. */
export function useCreateRecharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRecharge,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rechargesQueryKey }),
  });
}
