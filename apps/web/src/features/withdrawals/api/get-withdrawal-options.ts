import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type WithdrawalOptions,
  WithdrawalOptionsResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { WithdrawalOptions };

export const withdrawalOptionsQueryKey = ['merchant', 'withdrawal-options'] as const;

export const withdrawalOptionsQueryOptions = () =>
  queryOptions({
    queryKey: withdrawalOptionsQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/withdrawal-options', { signal, schema: WithdrawalOptionsResponseSchema })
        .then((r) => r.data),
  });

/**
 * GET /api/merchant/withdrawal-options: the networks, the fee per withdrawal and the free ones left today,
 * the rate to the merchant's currency and the available balance.
 */
export const useWithdrawalOptions = () => useQuery(withdrawalOptionsQueryOptions());
