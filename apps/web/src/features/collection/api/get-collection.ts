import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CollectionDetail,
  CollectionDetailResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';
import { collectionsQueryKey } from './get-collections.ts';

export type { CollectionDetail };

export const collectionQueryKey = (tradeNo: string) => [...collectionsQueryKey, 'detail', tradeNo] as const;

export const collectionQueryOptions = (tradeNo: string) =>
  queryOptions({
    queryKey: collectionQueryKey(tradeNo),
    queryFn: ({ signal }) =>
      http
        .get(`/api/merchant/collections/${encodeURIComponent(tradeNo)}`, {
          signal,
          schema: CollectionDetailResponseSchema,
        })
        .then((r) => r.data),
  });

/** GET /api/merchant/collections/{trade_no}: the order with its timeline and callback attempts. */
export const useCollection = (tradeNo: string | undefined) =>
  useQuery({ ...collectionQueryOptions(tradeNo ?? ''), enabled: tradeNo !== undefined });
