import { queryOptions, useQuery } from '@tanstack/react-query';
import { PayoutChannelsResponseSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import type { z } from 'zod';
import { http } from '../../../lib/http.ts';

export type PayoutChannels = z.infer<typeof PayoutChannelsResponseSchema>['data'];

export const payoutChannelsQueryKey = ['merchant', 'payout-channels'] as const;

export const payoutChannelsQueryOptions = () =>
  queryOptions({
    queryKey: payoutChannelsQueryKey,
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/payout-channels', { signal, schema: PayoutChannelsResponseSchema })
        .then((r) => r.data),
  });

/**
 * GET /api/merchant/payout-channels: the open payout channels (country, banks, limits and fees) and the
 * available balance they pay from.
 */
export const usePayoutChannels = () => useQuery(payoutChannelsQueryOptions());
