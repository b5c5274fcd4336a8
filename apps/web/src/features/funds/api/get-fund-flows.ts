import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FundFlowListQuery, FundFlowListResponse } from '@paydesk/shared/funds/funds.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { FundFlowListQuery, FundFlowListResponse };

export const fundFlowsQueryKey = ['merchant', 'fund-flows'] as const;

/** GET /api/merchant/fund-flows: one page, newest first, with the sums of the whole filter. */
export const fundFlowsQueryOptions = (query: FundFlowListQuery) =>
  queryOptions({
    queryKey: [...fundFlowsQueryKey, query],
    queryFn: ({ signal }) => http.get<FundFlowListResponse>('/api/merchant/fund-flows', { signal, query }),
    placeholderData: keepPreviousData,
  });

export const useFundFlows = (query: FundFlowListQuery) => useQuery(fundFlowsQueryOptions(query));
