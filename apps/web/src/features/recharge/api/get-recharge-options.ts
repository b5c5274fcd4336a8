import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type RechargeOptions,
  RechargeOptionsResponseSchema,
} from '@paydesk/shared/recharges/recharges.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { RechargeOptions };

/** GET /api/merchant/recharge-options: the networks, their deposit addresses and the indicative rate. */
export const rechargeOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['merchant', 'recharge-options'],
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/recharge-options', { signal, schema: RechargeOptionsResponseSchema })
        .then((r) => r.data),
  });

export const useRechargeOptions = () => useQuery(rechargeOptionsQueryOptions());
