import { RechargeListResponseSchema } from '@paydesk/shared/recharges/recharges.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/** GET /api/merchant/recharges: one page, newest first, with the sums of the whole filter (rows have every field). */
export const rechargesApi = listApi('recharges', {
  schema: RechargeListResponseSchema,
});

/** A new top-up changes the list. */
export const rechargesQueryKey = rechargesApi.queryKey;

/** Where a top-up's screenshot is served (to this merchant's users only, as an image). */
export const screenshotUrl = (rechargeNo: string) =>
  `/api/merchant/recharges/${encodeURIComponent(rechargeNo)}/screenshot`;
