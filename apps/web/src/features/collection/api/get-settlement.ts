import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type SettlementDetail,
  SettlementDetailResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';
import { settlementsQueryKey } from './get-settlements.ts';

export type { SettlementDetail };

export const settlementQueryOptions = (settlementNo: string) =>
  queryOptions({
    queryKey: [...settlementsQueryKey, 'detail', settlementNo],
    queryFn: ({ signal }) =>
      http
        .get(`/api/merchant/settlements/${encodeURIComponent(settlementNo)}`, {
          signal,
          schema: SettlementDetailResponseSchema,
        })
        .then((r) => r.data),
  });

/** GET /api/merchant/settlements/{settlement_no}: the batch with its orders. */
export const useSettlement = (settlementNo: string | undefined) =>
  useQuery({ ...settlementQueryOptions(settlementNo ?? ''), enabled: settlementNo !== undefined });
