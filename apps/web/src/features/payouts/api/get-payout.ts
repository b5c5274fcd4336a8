import { queryOptions, useQuery } from '@tanstack/react-query';
import { type PayoutDetail, PayoutDetailResponseSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { http } from '../../../lib/http.ts';
import { payoutsQueryKey } from './get-payouts.ts';

export type { PayoutDetail };

export const payoutQueryOptions = (tradeNo: string) =>
  queryOptions({
    queryKey: [...payoutsQueryKey, 'detail', tradeNo],
    queryFn: ({ signal }) =>
      http
        .get(`/api/merchant/payouts/${encodeURIComponent(tradeNo)}`, {
          signal,
          schema: PayoutDetailResponseSchema,
        })
        .then((r) => r.data),
  });

/** GET /api/merchant/payouts/{trade_no}: the payout with its timeline and callback attempts. */
export const usePayout = (tradeNo: string | undefined) =>
  useQuery({ ...payoutQueryOptions(tradeNo ?? ''), enabled: tradeNo !== undefined });
