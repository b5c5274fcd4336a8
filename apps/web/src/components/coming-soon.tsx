import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from './page-container.tsx';

/** The honest state of a page whose feature arrives later: its title and nothing pretending to be data. */
export function ComingSoon() {
  const { t } = useTranslation();
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <strong>{t('common:comingSoon.title')}</strong>
          <br />
          {t('common:comingSoon.description')}
        </>
      }
    />
  );
}

export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageContainer title={t(titleKey)}>
      <Card>
        <ComingSoon />
      </Card>
    </PageContainer>
  );
}
