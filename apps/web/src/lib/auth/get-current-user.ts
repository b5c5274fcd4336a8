import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@paydesk/shared/auth/auth.schemas.ts';
import { http, isHttpError } from '../http.ts';

export type { CurrentUser };

export const currentUserQueryKey = ['merchant', 'user'] as const;

/** Tries of the user call before the guard gives up on it (spec section 2: then the login page). */
export const USER_INFO_ATTEMPTS = 3;

/**
 * Worth asking again: no answer (network, timeout) or a server error. Not an ended session (401), a
 * refusal (4xx) or a user the shared schema refuses: the same question gets the same answer.
 */
const isPassing = (error: unknown) =>
  isHttpError(error) &&
  (error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'http' && error.status >= 500));

// The guard answers every failure of the user call itself (a missing session, a user it cannot trust,
// a server that stays down after the retries), so none shows a dialog here, nor one per try.
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/user', {
          signal,
          handled: 'all',
          // The guard is in the entry, which loads no zod: the schema loads while the request runs.
          schema: import('@paydesk/shared/auth/auth.schemas.ts').then((m) => m.CurrentUserResponseSchema),
        })
        .then((r) => r.data),
    staleTime: Infinity,
    retry: (failures, error) => failures < USER_INFO_ATTEMPTS - 1 && isPassing(error),
    retryDelay: (failures) => 500 * 2 ** failures,
  });

/** The signed-in user; the guard loaded it before any page of the layout renders. */
export function useCurrentUser(): CurrentUser | undefined {
  return useQuery(currentUserQueryOptions()).data;
}
