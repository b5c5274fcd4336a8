import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { useTopUpOptions } from '../api/get-top-up-options.ts';
import { TopUpForm } from '../components/top-up-form.tsx';

/** Top-ups > Top-up: send USDT to the platform, then submit the transfer for review. */
export default function TopUpPage() {
  const { t } = useTranslation(['topup', 'routes']);
  const options = useTopUpOptions();

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
  } else body = <TopUpForm options={options.data} />;

  return (
    <PageContainer title={t('routes:topUp')}>
      <Card>{body}</Card>
    </PageContainer>
  );
}
