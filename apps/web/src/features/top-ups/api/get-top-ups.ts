import { TopUpListResponseSchema } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/** GET /api/merchant/recharges: one page, newest first, with the sums of the whole filter (rows have every field). */
export const topUpsApi = listApi('recharges', {
  schema: TopUpListResponseSchema,
});

/** A new top-up changes the list. */
export const topUpsQueryKey = topUpsApi.queryKey;

/** Where a top-up's screenshot is served (to this merchant's users only, as an image). */
export const screenshotUrl = (topUpNo: string) =>
  `/api/merchant/recharges/${encodeURIComponent(topUpNo)}/screenshot`;
