import { WithdrawalListResponseSchema } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';

/** GET /api/merchant/withdrawals: one page, newest first, with the sums of the whole filter (rows have every field). */
export const withdrawalsApi = listApi('withdrawals', {
  schema: WithdrawalListResponseSchema,
});

/** A new withdrawal changes the list. */
export const withdrawalsQueryKey = withdrawalsApi.queryKey;
