import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserMeta } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { UserMeta };

export const userMetaQueryKey = ['user', 'meta'] as const;

/** GET /api/user/meta: time zone, two-factor, payment password and password confirmation state. */
export const userMetaQueryOptions = () =>
  queryOptions({
    queryKey: userMetaQueryKey,
    queryFn: ({ signal }) => http.get<{ data: UserMeta }>('/api/user/meta', { signal }).then((r) => r.data),
  });

export const useUserMeta = () => useQuery(userMetaQueryOptions());
