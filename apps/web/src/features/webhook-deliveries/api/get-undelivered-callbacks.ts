import { UndeliveredCallbackListResponseSchema } from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/**
 * GET /api/merchant/callbacks: the callbacks of the current mode not delivered in the last 30 days (given
 * up, or still failing), newest first, by event type and creation time.
 */
export const undeliveredCallbacksApi = listApi('callbacks', {
  schema: UndeliveredCallbackListResponseSchema,
});
