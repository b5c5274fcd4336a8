import { useTranslation } from 'react-i18next';
import { MoneyFormPage } from '../../../components/money-form-page.tsx';
import { useWithdrawalOptions } from '../api/get-withdrawal-options.ts';
import { WithdrawalForm } from '../components/withdrawal-form.tsx';

/** Withdrawals > Withdraw: USDT from the available balance to the merchant's wallet (both factors needed). */
export default function WithdrawalApplyPage() {
  const { t } = useTranslation('routes');
  return (
    <MoneyFormPage
      title={t('withdrawalApply')}
      namespace="withdrawals"
      options={useWithdrawalOptions()}
      needsTwoFactor
      form={(options) => <WithdrawalForm options={options} />}
    />
  );
}
