import { useTranslation } from 'react-i18next';
import { MoneyFormPage } from '../../../components/money-form-page.tsx';
import { useTopUpOptions } from '../api/get-top-up-options.ts';
import { TopUpForm } from '../components/top-up-form.tsx';

/** Top-ups > Top-up: send USDT to the platform, then submit the transfer for review. */
export default function TopUpPage() {
  const { t } = useTranslation('routes');
  return (
    <MoneyFormPage
      title={t('topUp')}
      namespace="top-ups"
      options={useTopUpOptions()}
      form={(options) => <TopUpForm options={options} />}
    />
  );
}
