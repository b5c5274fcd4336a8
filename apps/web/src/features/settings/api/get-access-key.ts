import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AccessKey, AccessKeyResponseSchema } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { AccessKey };

export const accessKeyQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'access-key'],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/access-key', { signal, schema: AccessKeyResponseSchema }).then((r) => r.data),
  });

export const useAccessKey = () => useQuery(accessKeyQueryOptions());
