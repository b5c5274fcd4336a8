import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type WithdrawalListQuery,
  type WithdrawalListResponse,
  WithdrawalListResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { WithdrawalListQuery, WithdrawalListResponse };

export const withdrawalsQueryKey = ['merchant', 'withdrawals'] as const;

/** GET /api/merchant/withdrawals: one page, newest first, with the sums of the whole filter. */
export const withdrawalsQueryOptions = (query: WithdrawalListQuery) =>
  queryOptions({
    queryKey: [...withdrawalsQueryKey, 'list', query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/withdrawals', { signal, query, schema: WithdrawalListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useWithdrawals = (query: WithdrawalListQuery) => useQuery(withdrawalsQueryOptions(query));
