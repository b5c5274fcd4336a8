import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateNotifyUrlBody } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';
import type { Mode } from '../../../stores/mode.ts';
import { accessKeyQueryKey } from './get-access-key.ts';

/**
 * PUT /api/merchant/access-key/update {mode, notify_url}: the default callback address of the key of that
 * mode (null clears it). The mode is the page's, never left to the server's default: a test-mode page writes
 * the test key's address.
 */
export const updateNotifyUrl = (body: UpdateNotifyUrlBody & { mode: Mode }): Promise<void> =>
  http.put('/api/merchant/access-key/update', body, { handled: [422] });

export function useUpdateNotifyUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotifyUrl,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeyQueryKey }),
  });
}
