import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CollectionListQuery,
  type CollectionListResponse,
  CollectionListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { CollectionListQuery, CollectionListResponse };

export const collectionsQueryKey = ['merchant', 'collections'] as const;

/** GET /api/merchant/collections: one page, newest first, with the sums of the whole filter. */
export const collectionsQueryOptions = (query: CollectionListQuery) =>
  queryOptions({
    queryKey: [...collectionsQueryKey, 'list', query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/collections', { signal, query, schema: CollectionListResponseSchema }),
    placeholderData: keepPreviousData,
  });

export const useCollections = (query: CollectionListQuery) => useQuery(collectionsQueryOptions(query));
