import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type InviteBody, InviteResponseSchema } from '@paydesk/shared/team/team.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { teamQueryKey } from './get-team.ts';

/**
 * POST /api/merchant/team/invitations {email, role, payment_password, code}: the invitation as the team
 * lists it; the link goes to the colleague by mail. 409 email_taken for an address in use.
 */
export const inviteUser = ({ email, role, ...factors }: InviteBody & StepUpValues) =>
  http
    .post(
      '/api/merchant/team/invitations',
      { email, role, ...stepUpBody(factors) },
      { handled: [...STEP_UP_HANDLED, 409], schema: InviteResponseSchema },
    )
    .then((r) => r.data);

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
