import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Balance, BalanceResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { Balance };

export const balanceQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'balance'],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/balance', { signal, schema: BalanceResponseSchema }).then((r) => r.data),
  });

/** GET /api/merchant/balance: total, available and locked funds (funds:view). */
export const useBalance = (options: { enabled?: boolean; refetchInterval?: number } = {}) =>
  useQuery({
    ...balanceQueryOptions(),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
  });
