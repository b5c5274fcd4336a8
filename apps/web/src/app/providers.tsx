import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAntdLocale, useAntdLocale } from '../i18n/antd-locale.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { onFeedbackNeeded } from '../lib/feedback.ts';
import { queryClient } from '../lib/query-client.ts';
import { antdSize, appSettings } from '../stores/app-settings.ts';
import { layoutSettings } from '../stores/layout-settings.ts';

const LazyFeedbackHost = lazy(() => import('./feedback-host.tsx'));

/** Dialogs outside the layout (login, error pages): loaded the first time one is needed. */
function StandaloneFeedback() {
  const [isNeeded, setIsNeeded] = useState(false);
  useEffect(() => onFeedbackNeeded(() => setIsNeeded(true)), []);
  return isNeeded ? (
    <Suspense fallback={null}>
      <LazyFeedbackHost />
    </Suspense>
  ) : null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = resolveLanguage(i18n.language);
  const locale = useAntdLocale(language);
  const size = appSettings.useSelector((s) => s.size);
  const themeColor = layoutSettings.useSelector((s) => s.themeColor);
  useEffect(() => {
    void loadAntdLocale(language);
  }, [language]);
  useEffect(() => {
    // The console's own styles (loading bar, login page, logo) follow the theme colour too.
    document.documentElement.style.setProperty('--paydesk-primary', themeColor);
  }, [themeColor]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={locale}
        componentSize={antdSize(size)}
        theme={{ token: { colorPrimary: themeColor } }}
      >
        <StandaloneFeedback />
        {children}
      </ConfigProvider>
    </QueryClientProvider>
  );
}
