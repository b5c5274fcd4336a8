import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@paydesk/shared/auth/auth.schemas.ts';
import { http } from '../http.ts';

export type { CurrentUser };

export const currentUserQueryKey = ['merchant', 'user'] as const;

// The guard answers a missing session (401) and a user it cannot trust (an answer the shared schema
// refuses, such as empty roles) itself, so neither shows a dialog here.
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/user', {
          signal,
          handled: [401, 'contract'],
          // The guard is in the entry, which loads no zod: the schema loads while the request runs.
          schema: import('@paydesk/shared/auth/auth.schemas.ts').then((m) => m.CurrentUserResponseSchema),
        })
        .then((r) => r.data),
    staleTime: Infinity,
  });

/** The signed-in user; the guard loaded it before any page of the layout renders. */
export function useCurrentUser(): CurrentUser | undefined {
  return useQuery(currentUserQueryOptions()).data;
}
