import {
  CollectionDetailResponseSchema,
  CollectionListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/**
 * GET /api/merchant/collections (one page, newest first, with the sums of the whole filter),
 * GET /api/merchant/collections/{trade_no} (the order with its timeline and callback attempts) and
 * POST /api/merchant/collections/{trade_no}/notify (its latest callback event, queued again).
 */
export const collectionsApi = listApi('collections', {
  schema: CollectionListResponseSchema,
  detail: CollectionDetailResponseSchema,
  notify: true,
});
