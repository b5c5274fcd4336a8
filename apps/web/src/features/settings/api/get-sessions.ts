import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SessionItem, SessionListResponseSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { SessionItem };

export const sessionsQueryKey = ['user', 'sessions'] as const;

/** GET /api/user/sessions: where this user is signed in, this session marked. */
export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: ({ signal }) =>
      http.get('/api/user/sessions', { signal, schema: SessionListResponseSchema }).then((r) => r.data),
  });

export const useSessions = () => useQuery(sessionsQueryOptions());
