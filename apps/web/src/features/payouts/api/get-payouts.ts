import {
  PayoutDetailResponseSchema,
  PayoutListResponseSchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/**
 * GET /api/merchant/payouts (one page, newest first, with the sums of the whole filter),
 * GET /api/merchant/payouts/{trade_no} (the payout with its timeline and callback attempts) and
 * POST /api/merchant/payouts/{trade_no}/notify (its latest callback event, queued again).
 */
export const payoutsApi = listApi('payouts', {
  schema: PayoutListResponseSchema,
  detail: PayoutDetailResponseSchema,
  notify: true,
});

/** A new payout changes the list (and the balance the form shows). */
export const payoutsQueryKey = payoutsApi.queryKey;
