import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@paydesk/shared/auth/roles.ts';
import { TeamMemberResponseSchema } from '@paydesk/shared/team/team.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody, type StepUpValues } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { teamQueryKey } from './get-team.ts';

export type TeamAction = 'role' | 'disable' | 'enable' | 'reset-two-factor';

export type TeamChange = StepUpValues & { userId: number; action: TeamAction; role?: Role };

/**
 * The four changes to a colleague, each with the step-up: PUT /api/merchant/team/{id}/role {role},
 * POST .../disable, .../enable and .../reset-two-factor. 409 last_root or team_self_change, 404 for a
 * user no longer in the team.
 */
export function changeTeamUser({ userId, action, role, ...factors }: TeamChange) {
  const url = `/api/merchant/team/${userId}/${action}`;
  const options = { handled: [...STEP_UP_HANDLED, 404, 409], schema: TeamMemberResponseSchema };
  const body = { ...(action === 'role' ? { role } : {}), ...stepUpBody(factors) };
  return (action === 'role' ? http.put(url, body, options) : http.post(url, body, options)).then(
    (r) => r.data,
  );
}

export function useChangeTeamUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeTeamUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
