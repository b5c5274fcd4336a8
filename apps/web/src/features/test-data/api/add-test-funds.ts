import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type TestFundsBody, TestFundsResponseSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import { http } from '../../../lib/http.ts';

export type TestBalance = z.infer<typeof TestFundsResponseSchema>['data'];

/**
 * POST /api/merchant/test-funds {amount} (ROOT, test mode only): adds test money to the test balance,
 * through the ledger; answers the test balance after. The form shows the refusals (409 test_mode_only,
 * 422 validation) under the amount.
 */
export const addTestFunds = (body: TestFundsBody): Promise<TestBalance> =>
  http
    .post('/api/merchant/test-funds', body, { handled: [409, 422], schema: TestFundsResponseSchema })
    .then((r) => r.data);

export function useAddTestFunds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTestFunds,
    // The balance (this page's, the dashboard's) and the fund flows have a new entry.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['merchant', 'balance'] }),
        queryClient.invalidateQueries({ queryKey: ['merchant', 'fund-flows'] }),
      ]),
  });
}
