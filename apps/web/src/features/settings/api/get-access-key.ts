import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

export type AccessKey = { access_key: string; created_at: string; rotated_at: string | null };

export const accessKeyQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'access-key'],
    queryFn: ({ signal }) =>
      http.get<{ data: AccessKey | null }>('/api/merchant/access-key', { signal }).then((r) => r.data),
  });

export const useAccessKey = () => useQuery(accessKeyQueryOptions());
