import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';

/** /authentication (hidden): where a feature that needs two-factor sends a user who has not bound it. */
export default function AuthenticationPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t('routes:authentication')}>
      <Card>
        <TwoFactorRequired />
      </Card>
    </PageContainer>
  );
}
