import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/**
 * GET /api/auth/invitations/{token}: the merchant, address and role of an open invitation; 404
 * invitation_not_found, 410 invitation_expired or invitation_used otherwise (the page says which).
 */
export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'invitation', token],
    queryFn: ({ signal }) =>
      http
        .get(`/api/auth/invitations/${encodeURIComponent(token)}`, {
          signal,
          handled: [404, 410],
          // The entry loads no zod: the schema comes with the call.
          schema: import('@paydesk/shared/team/team.schemas.ts').then((m) => m.InvitationInfoResponseSchema),
        })
        .then((r) => r.data),
    retry: false,
  });

export const useInvitation = (token: string) => useQuery(invitationQueryOptions(token));
