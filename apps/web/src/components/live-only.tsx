import { ExperimentOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { setMode, useMode } from '../stores/mode.ts';
import { PageContainer } from './page-container.tsx';

/** What a live-only page shows in test mode, in place of its form or list (it asks the server nothing). */
export function LiveOnlyResult({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('modes');
  return (
    <PageContainer title={t(titleKey)}>
      <Card>
        <Result
          icon={<ExperimentOutlined style={{ color: '#f5a623' }} />}
          title={t('liveOnly.title')}
          subTitle={t('liveOnly.text')}
          extra={
            <Button type="primary" onClick={() => setMode('live')} data-testid="switch-to-live">
              {t('liveOnly.switch')}
            </Button>
          }
          data-testid="live-only"
        />
      </Card>
    </PageContainer>
  );
}

/**
 * A page of real money only (DESIGN 12: top-ups and withdrawals): in test mode it shows that it is live
 * only, and mounts, with its calls, once the user is back in live mode.
 */
export function liveOnly(Page: ComponentType, titleKey: string): ComponentType {
  return function LiveOnlyPage() {
    return useMode() === 'test' ? <LiveOnlyResult titleKey={titleKey} /> : <Page />;
  };
}
