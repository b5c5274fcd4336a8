import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { useRechargeOptions } from '../api/get-recharge-options.ts';
import { TopupForm } from '../components/topup-form.tsx';

/** Top-ups > Top-up: send USDT to the platform, then submit the transfer for review. */
export default function TopupPage() {
  const { t } = useTranslation(['recharge', 'routes']);
  const options = useRechargeOptions();

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
  } else body = <TopupForm options={options.data} />;

  return (
    <PageContainer title={t('routes:rechargeTopup')}>
      <Card>{body}</Card>
    </PageContainer>
  );
}
