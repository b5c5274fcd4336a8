import { queryOptions, useQuery } from '@tanstack/react-query';
import { type UserMeta, UserMetaResponseSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { UserMeta };

export const userMetaQueryKey = ['user', 'meta'] as const;

/** GET /api/user/meta: time zone, two-factor, payment password and password confirmation state. */
export const userMetaQueryOptions = () =>
  queryOptions({
    queryKey: userMetaQueryKey,
    queryFn: ({ signal }) =>
      http.get('/api/user/meta', { signal, schema: UserMetaResponseSchema }).then((r) => r.data),
  });

export const useUserMeta = () => useQuery(userMetaQueryOptions());
