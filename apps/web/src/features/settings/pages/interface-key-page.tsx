import { Card, Descriptions, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccessKey } from '../api/get-access-key.ts';

/** Settings > Access key (ROOT only): the key as issued; its secret and the IP whitelist come later. */
export default function InterfaceKeyPage() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useAccessKey();
  return (
    <PageContainer title={t('routes:interfaceKey')}>
      <Card title={t('settings:accessKey.title')} style={{ marginBottom: 16 }}>
        {isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : isError ? (
          <Typography.Text type="secondary">{t('settings:accessKey.loadFailed')}</Typography.Text>
        ) : data ? (
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('settings:accessKey.accessKey')}>
              <Typography.Text code copyable>
                {data.access_key}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('settings:accessKey.createdAt')}>
              <DateTime value={data.created_at} />
            </Descriptions.Item>
            <Descriptions.Item label={t('settings:accessKey.rotatedAt')}>
              {data.rotated_at ? <DateTime value={data.rotated_at} /> : t('settings:accessKey.neverRotated')}
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Typography.Text type="secondary">{t('settings:accessKey.none')}</Typography.Text>
        )}
      </Card>
      <Card title={t('settings:accessKey.secretAndWhitelist')}>
        <ComingSoon />
      </Card>
    </PageContainer>
  );
}
