import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { testDataDeletionQueryKey } from './get-test-data-deletion.ts';

/**
 * POST /api/merchant/test-data/delete {} (ROOT): 202, a job deletes every test object of the merchant and
 * credits fresh test funds; 409 test_data_busy while a test export runs (the page shows it under the
 * button). The answer is not read: the status is read again, and polled until the job is done.
 */
export const deleteTestData = (): Promise<void> =>
  http.post('/api/merchant/test-data/delete', {}, { handled: [409] });

export function useDeleteTestData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTestData,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testDataDeletionQueryKey }),
  });
}
