import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type LimitKind,
  type MerchantLimits,
  MerchantLimitsResponseSchema,
} from '@paydesk/shared/limits/limits.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { MerchantLimits };

export const limitsQueryKey = (kind: LimitKind) => ['merchant', 'limits', kind] as const;

export const limitsQueryOptions = (kind: LimitKind) =>
  queryOptions({
    queryKey: limitsQueryKey(kind),
    queryFn: ({ signal }) =>
      http
        .get(`/api/merchant/limits?${new URLSearchParams({ kind })}`, {
          signal,
          schema: MerchantLimitsResponseSchema,
        })
        .then((r) => r.data),
  });

/**
 * GET /api/merchant/limits?kind=: the limits an operator set on the merchant's orders of this kind (this
 * mode) and what today's orders used of them (DESIGN 14), for the payout and withdrawal forms.
 */
export const useLimits = (kind: LimitKind) => useQuery(limitsQueryOptions(kind));
