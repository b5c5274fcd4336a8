import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type IpWhitelist,
  IpWhitelistResponseSchema,
} from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { IpWhitelist };

export const ipWhitelistQueryKey = ['merchant', 'ip-address'] as const;

export const ipWhitelistQueryOptions = () =>
  queryOptions({
    queryKey: ipWhitelistQueryKey,
    queryFn: ({ signal }) =>
      http.get('/api/merchant/ip-address', { signal, schema: IpWhitelistResponseSchema }).then((r) => r.data),
  });

/** GET /api/merchant/ip-address: the addresses the gateway API accepts calls from (empty: none). */
export const useIpWhitelist = () => useQuery(ipWhitelistQueryOptions());
