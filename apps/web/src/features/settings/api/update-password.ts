import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdatePasswordBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';
import { sessionsQueryKey } from './get-sessions.ts';

export type { UpdatePasswordBody };

/**
 * PUT /api/user/password; every other session of the user ends. The spec's console put these fields in
 * the query string (the server still reads them there); a body keeps passwords out of URLs and logs.
 */
export const updatePassword = (input: UpdatePasswordBody): Promise<void> =>
  http.put('/api/user/password', input, { handled: [422, 429] });

export function useUpdatePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
