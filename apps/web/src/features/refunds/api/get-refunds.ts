import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  RefundDetailResponseSchema,
  RefundListResponseSchema,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';
import { http } from '../../../lib/http.ts';

/**
 * GET /api/merchant/refunds (one page, newest first, with the sums of the whole filter) and
 * GET /api/merchant/refunds/{refund_no} (the refund with its timeline, attempts and callbacks). Refunds have
 * no resend endpoint yet: their callbacks are shown read-only.
 */
export const refundsApi = listApi('refunds', {
  schema: RefundListResponseSchema,
  detail: RefundDetailResponseSchema,
});

/** Every refunds query starts with it: a new refund invalidates them all (the page and the order's). */
export const refundsQueryKey = refundsApi.queryKey;

/** An order's refunds: GET /api/merchant/refunds?trade_no=..., the first page (an order has few). */
export const orderRefundsQueryOptions = (tradeNo: string) =>
  queryOptions({
    queryKey: [...refundsQueryKey, 'order', tradeNo],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/refunds', {
        signal,
        query: { trade_no: tradeNo, per_page: 50 },
        schema: RefundListResponseSchema,
      }),
  });

export const useOrderRefunds = (tradeNo: string, enabled: boolean) =>
  useQuery({ ...orderRefundsQueryOptions(tradeNo), enabled });
