import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type PayoutListQuery,
  type PayoutListResponse,
  PayoutListResponseSchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { PayoutListQuery, PayoutListResponse };

export const payoutsQueryKey = ['merchant', 'payouts'] as const;

/** GET /api/merchant/payouts: one page, newest first, with the sums of the whole filter. */
export const payoutsQueryOptions = (query: PayoutListQuery) =>
  queryOptions({
    queryKey: [...payoutsQueryKey, 'list', query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/payouts', { signal, query, schema: PayoutListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const usePayouts = (query: PayoutListQuery) => useQuery(payoutsQueryOptions(query));
