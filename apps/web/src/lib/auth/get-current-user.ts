import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@paydesk/shared/auth/auth.schemas.ts';
import { http } from '../http.ts';

export type { CurrentUser };

export const currentUserQueryKey = ['merchant', 'user'] as const;

// The guard answers a missing session itself (a redirect to the login page), so 401 shows no dialog here.
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) =>
      http.get<{ data: CurrentUser }>('/api/merchant/user', { signal, handled: [401] }).then((r) => r.data),
    staleTime: Infinity,
  });

/** The signed-in user; the guard loaded it before any page of the layout renders. */
export function useCurrentUser(): CurrentUser | undefined {
  return useQuery(currentUserQueryOptions()).data;
}

/** Roles must be a non-empty array of strings, or the session cannot be trusted (spec section 6). */
export const hasValidRoles = (user: unknown): user is CurrentUser => {
  const roles = (user as { roles?: unknown } | null)?.roles;
  return Array.isArray(roles) && roles.length > 0 && roles.every((role) => typeof role === 'string');
};
