import { queryOptions, useQuery } from '@tanstack/react-query';
import { type FundFlow, FundFlowResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { FundFlow };

export const fundFlowQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['merchant', 'fund-flows', 'detail', id],
    queryFn: ({ signal }) =>
      http
        .get(`/api/merchant/fund-flows/${id}`, { signal, schema: FundFlowResponseSchema })
        .then((r) => r.data),
  });

/** GET /api/merchant/fund-flows/:id: one entry of the merchant's fund flow. */
export const useFundFlow = (id: number | undefined) =>
  useQuery({ ...fundFlowQueryOptions(id ?? 0), enabled: id !== undefined });
