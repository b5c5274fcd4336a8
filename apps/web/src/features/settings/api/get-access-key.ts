import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AccessKey, AccessKeyResponseSchema } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { AccessKey };

export const accessKeyQueryKey = ['merchant', 'access-key'] as const;

export const accessKeyQueryOptions = () =>
  queryOptions({
    queryKey: accessKeyQueryKey,
    queryFn: ({ signal }) =>
      http.get('/api/merchant/access-key', { signal, schema: AccessKeyResponseSchema }).then((r) => r.data),
  });

/** GET /api/merchant/access-key (ROOT): the key without its secrets, or null before one is issued. */
export const useAccessKey = () => useQuery(accessKeyQueryOptions());
