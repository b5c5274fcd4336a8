import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CreateWithdrawalBody,
  type Withdrawal,
  WithdrawalResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { STEP_UP_HANDLED, stepUpBody } from '../../../components/step-up-fields.tsx';
import { http } from '../../../lib/http.ts';
import { withdrawalOptionsQueryKey } from './get-withdrawal-options.ts';
import { withdrawalsQueryKey } from './get-withdrawals.ts';

export type { CreateWithdrawalBody };

/** POST /api/merchant/withdrawals: the form with the payment password and Google code. */
export const createWithdrawal = ({
  payment_password,
  code,
  ...withdrawal
}: CreateWithdrawalBody): Promise<Withdrawal> =>
  http
    .post(
      '/api/merchant/withdrawals',
      { ...withdrawal, ...stepUpBody({ payment_password, code }) },
      { handled: STEP_UP_HANDLED, schema: WithdrawalResponseSchema },
    )
    .then((r) => r.data);

/** Requests the withdrawal; the history, the options (free ones left, balance) and the balance read again. */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    onSuccess: () => {
      for (const queryKey of [
        withdrawalsQueryKey,
        withdrawalOptionsQueryKey,
        ['merchant', 'balance'],
        ['merchant', 'dashboard'],
        ['merchant', 'limits'],
      ])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
}
