import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type TestDataDeletion,
  TestDataDeletionResponseSchema,
} from '@paydesk/shared/modes/modes.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { TestDataDeletion };

/** How often the page asks again while a deletion is queued or running. */
export const DELETION_POLL_MS = 2_000;

export const testDataDeletionQueryKey = ['merchant', 'test-data', 'deletion'] as const;

export const testDataDeletionQueryOptions = () =>
  queryOptions({
    queryKey: testDataDeletionQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/test-data/delete', { signal, schema: TestDataDeletionResponseSchema })
        .then((r) => r.data),
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'idle' ? DELETION_POLL_MS : false,
  });

/** GET /api/merchant/test-data/delete (ROOT): where the deletion of all test data stands; polled until idle. */
export const useTestDataDeletion = () => useQuery(testDataDeletionQueryOptions());
