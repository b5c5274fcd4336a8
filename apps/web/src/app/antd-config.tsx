import { ConfigProvider } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAntdLocale, useAntdLocale } from '../i18n/antd-locale.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { antdSize, appSettings } from '../stores/app-settings.ts';
import { layoutSettings } from '../stores/layout-settings.ts';

/**
 * antd's settings (its texts in the user's language, the component size, the theme colour) around
 * whatever shows antd: the layout, the error pages and the login page's dialogs. Not in the entry: the
 * login page has no antd component, so antd loads with the first of those.
 */
export function AntdConfig({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = resolveLanguage(i18n.language);
  const locale = useAntdLocale(language);
  const size = appSettings.useSelector((s) => s.size);
  const themeColor = layoutSettings.useSelector((s) => s.themeColor);
  useEffect(() => {
    void loadAntdLocale(language);
  }, [language]);
  return (
    <ConfigProvider
      locale={locale}
      componentSize={antdSize(size)}
      theme={{ token: { colorPrimary: themeColor } }}
    >
      {children}
    </ConfigProvider>
  );
}
