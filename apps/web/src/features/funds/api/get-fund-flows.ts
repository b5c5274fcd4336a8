import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type FundFlowListQuery,
  type FundFlowListResponse,
  FundFlowListResponseSchema,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { FundFlowListQuery, FundFlowListResponse };

export const fundFlowsQueryKey = ['merchant', 'fund-flows'] as const;

/** GET /api/merchant/fund-flows: one page, newest first, with the sums of the whole filter. */
export const fundFlowsQueryOptions = (query: FundFlowListQuery) =>
  queryOptions({
    queryKey: [...fundFlowsQueryKey, query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/fund-flows', { signal, query, schema: FundFlowListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useFundFlows = (query: FundFlowListQuery) => useQuery(fundFlowsQueryOptions(query));
