import { queryOptions, useQuery } from '@tanstack/react-query';
import { type TopUpOptions, TopUpOptionsResponseSchema } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { TopUpOptions };

/** GET /api/merchant/recharge-options: the networks, their deposit addresses and the indicative rate. */
export const topUpOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'top-up-options'],
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/recharge-options', { signal, schema: TopUpOptionsResponseSchema })
        .then((r) => r.data),
  });

export const useTopUpOptions = () => useQuery(topUpOptionsQueryOptions());
