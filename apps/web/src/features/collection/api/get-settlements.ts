import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type SettlementListQuery,
  type SettlementListResponse,
  SettlementListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { SettlementListQuery, SettlementListResponse };

export const settlementsQueryKey = ['merchant', 'settlements'] as const;

/** GET /api/merchant/settlements: one page, newest first, with the sums of the whole filter. */
export const settlementsQueryOptions = (query: SettlementListQuery) =>
  queryOptions({
    queryKey: [...settlementsQueryKey, 'list', query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/settlements', { signal, query, schema: SettlementListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useSettlements = (query: SettlementListQuery) => useQuery(settlementsQueryOptions(query));
