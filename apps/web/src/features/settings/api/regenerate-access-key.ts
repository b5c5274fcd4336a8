import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { RegeneratedAccessKeyResponseSchema } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import type { Mode } from '../../../stores/mode.ts';
import { type AccessKey, accessKeyQueryOptions } from './get-access-key.ts';

export type RegeneratedAccessKey = z.infer<typeof RegeneratedAccessKeyResponseSchema>['data'];

/**
 * PUT /api/merchant/access-key/regenerate {mode, payment_password, code}: a new key of that mode with its
 * secrets; the old secret stops working at once. The first key of a merchant is issued the same way.
 */
export const regenerateAccessKey = ({
  mode,
  ...values
}: StepUpValues & { mode: Mode }): Promise<RegeneratedAccessKey> =>
  http
    .put(
      '/api/merchant/access-key/regenerate',
      { mode, ...stepUpBody(values) },
      {
        handled: STEP_UP_HANDLED,
        schema: RegeneratedAccessKeyResponseSchema,
      },
    )
    .then((r) => r.data);

export function useRegenerateAccessKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateAccessKey,
    // The answer carries the new secrets: forget it as soon as the page is gone.
    gcTime: 0,
    // The page shows the key at once; the secrets stay out of the cache.
    onSuccess: (issued, { mode }) => {
      const key: AccessKey = {
        merchant_no: issued.merchant_no,
        access_key: issued.access_key,
        notify_url: issued.notify_url,
        created_at: issued.created_at,
        rotated_at: issued.rotated_at,
      };
      queryClient.setQueryData(accessKeyQueryOptions(mode).queryKey, key);
    },
  });
}
