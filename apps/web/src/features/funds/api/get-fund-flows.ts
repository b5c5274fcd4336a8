import { FundFlowListResponseSchema, FundFlowResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/**
 * GET /api/merchant/fund-flows (one page, newest first, with the sums of the whole filter) and
 * GET /api/merchant/fund-flows/{id} (one entry).
 */
export const fundFlowsApi = listApi('fund-flows', {
  schema: FundFlowListResponseSchema,
  detail: FundFlowResponseSchema,
});
