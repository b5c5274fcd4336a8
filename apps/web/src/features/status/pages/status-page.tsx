import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageContainer } from '../../../components/page-container.tsx';

const STATUSES = ['success', 'error', 'info', 'warning'] as const;
type Status = (typeof STATUSES)[number];

/** /statusPages?status=success|error|info|warning: the end of a flow, with the way back. */
export default function StatusPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const requested = params.get('status');
  const status: Status = STATUSES.includes(requested as Status) ? (requested as Status) : 'info';
  return (
    <PageContainer title={t('routes:statusPages')}>
      <Card>
        <Result
          status={status}
          title={t(`common:status.${status}`)}
          extra={
            <Link to="/dashboard">
              <Button type="primary">{t('common:actions.backHome')}</Button>
            </Link>
          }
        />
      </Card>
    </PageContainer>
  );
}
