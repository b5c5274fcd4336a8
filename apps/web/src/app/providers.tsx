import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { onFeedbackNeeded } from '../lib/feedback.ts';
import { queryClient } from '../lib/query-client.ts';
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

/** What every route shares; antd's settings are AntdConfig's, around the parts that show antd. */
export function AppProviders({ children }: { children: ReactNode }) {
  const themeColor = layoutSettings.useSelector((s) => s.themeColor);
  useEffect(() => {
    // The console's own styles (loading bar, login page, logo) follow the theme colour too.
    document.documentElement.style.setProperty('--paydesk-primary', themeColor);
  }, [themeColor]);
  return (
    <QueryClientProvider client={queryClient}>
      <StandaloneFeedback />
      {children}
    </QueryClientProvider>
  );
}
