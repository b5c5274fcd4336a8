import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { useWithdrawalOptions } from '../api/get-withdrawal-options.ts';
import { WithdrawalForm } from '../components/withdrawal-form.tsx';

/** Withdrawals > Withdraw: USDT from the available balance to the merchant's wallet. */
export default function WithdrawalApplyPage() {
  const { t } = useTranslation(['withdrawal', 'routes']);
  const options = useWithdrawalOptions();
  const user = useCurrentUser();

  let body;
  if (options.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (options.isError) {
    body = (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void options.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  // Withdrawals need both factors: without two-factor the server refuses whatever is typed.
  else if (user && !user.two_factor_enabled) body = <TwoFactorRequired />;
  else body = <WithdrawalForm options={options.data} />;

  return (
    <PageContainer title={t('routes:withdrawalApply')}>
      <Card>{body}</Card>
    </PageContainer>
  );
}
