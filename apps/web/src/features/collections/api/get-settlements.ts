import {
  SettlementDetailResponseSchema,
  SettlementListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/**
 * GET /api/merchant/settlements (one page, newest first, with the sums of the whole filter) and
 * GET /api/merchant/settlements/{settlement_no} (the batch with its orders).
 */
export const settlementsApi = listApi('settlements', {
  schema: SettlementListResponseSchema,
  detail: SettlementDetailResponseSchema,
});
