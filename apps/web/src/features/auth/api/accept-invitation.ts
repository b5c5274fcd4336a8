import { useMutation } from '@tanstack/react-query';
import type { AcceptInvitationBody } from '@paydesk/shared/team/team.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/auth/invitations/{token}/accept {name, password, password_confirmation}: the colleague's
 * account is made and signed in. A fresh XSRF cookie first, as the login does.
 */
export async function acceptInvitation({ token, ...body }: AcceptInvitationBody & { token: string }) {
  const schema = import('@paydesk/shared/auth/auth.schemas.ts').then((m) => m.LoginResponseSchema);
  await http.get('/api/csrf-cookie');
  return http.post(`/api/auth/invitations/${encodeURIComponent(token)}/accept`, body, {
    handled: [404, 409, 410, 422, 429],
    schema,
  });
}

export const useAcceptInvitation = () => useMutation({ mutationFn: acceptInvitation });
