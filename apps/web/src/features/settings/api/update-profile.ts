import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileInformationBody } from '@paydesk/shared/security/security.schemas.ts';
import { currentUserQueryKey } from '../../../lib/auth/get-current-user.ts';
import { http } from '../../../lib/http.ts';
import { userMetaQueryKey } from './get-user-meta.ts';

/** PUT /api/user/profile-information: name, email and time zone; 422 per field. */
export const updateProfile = (body: ProfileInformationBody): Promise<void> =>
  http.put('/api/user/profile-information', body, { handled: [422] });

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      await queryClient.invalidateQueries({ queryKey: userMetaQueryKey });
    },
  });
}
