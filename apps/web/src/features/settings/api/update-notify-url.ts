import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateNotifyUrlBody } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';
import { accessKeyQueryKey } from './get-access-key.ts';

/** PUT /api/merchant/access-key/update {notify_url}: the default callback address (null clears it). */
export const updateNotifyUrl = (body: UpdateNotifyUrlBody): Promise<void> =>
  http.put('/api/merchant/access-key/update', body, { handled: [422] });

export function useUpdateNotifyUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotifyUrl,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeyQueryKey }),
  });
}
