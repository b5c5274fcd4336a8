import { queryOptions, useQuery } from '@tanstack/react-query';
import { type TeamMember, TeamListResponseSchema } from '@paydesk/shared/team/team.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { TeamMember };

export const teamQueryKey = ['merchant', 'team'] as const;

export const teamQueryOptions = () =>
  queryOptions({
    queryKey: teamQueryKey,
    queryFn: ({ signal }) =>
      http.get('/api/merchant/team', { signal, schema: TeamListResponseSchema }).then((r) => r.data),
  });

/** GET /api/merchant/team: the merchant's users and open invitations. */
export const useTeam = () => useQuery(teamQueryOptions());
