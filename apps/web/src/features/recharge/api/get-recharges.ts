import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type RechargeListQuery,
  type RechargeListResponse,
  RechargeListResponseSchema,
} from '@paydesk/shared/recharges/recharges.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { RechargeListQuery, RechargeListResponse };

export const rechargesQueryKey = ['merchant', 'recharges'] as const;

/** GET /api/merchant/recharges: one page, newest first, with the sums of the whole filter. */
export const rechargesQueryOptions = (query: RechargeListQuery) =>
  queryOptions({
    queryKey: [...rechargesQueryKey, 'list', query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/recharges', { signal, query, schema: RechargeListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useRecharges = (query: RechargeListQuery) => useQuery(rechargesQueryOptions(query));

/** Where a top-up's screenshot is served (to this merchant's users only, as an image). */
export const screenshotUrl = (rechargeNo: string) =>
  `/api/merchant/recharges/${encodeURIComponent(rechargeNo)}/screenshot`;
