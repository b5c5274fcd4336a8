import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

/**
 * Total, available and locked funds (GET /api/merchant/balance). A slot: the funds work fills it in;
 * until then it says so rather than showing figures.
 */
export function FundsCards() {
  const { t } = useTranslation('dashboard');
  return (
    <Card title={t('funds.title')}>
      <ComingSoon />
    </Card>
  );
}
