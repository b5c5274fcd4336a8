// antd's texts (pagination, empty states, date pickers) in the user's language, loaded on demand so the
// login route carries none it does not show.
import type { Locale } from 'antd/es/locale';
import { createStore } from '../lib/create-store.ts';
import type { Language } from './language.ts';

const LOADERS: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US'),
  'zh-cn': () => import('antd/es/locale/zh_CN'),
  vi: () => import('antd/es/locale/vi_VN'),
};

const loaded = createStore<Partial<Record<Language, Locale>>>({});
const loading = new Map<Language, Promise<void>>();

export function loadAntdLocale(language: Language): Promise<void> {
  let promise = loading.get(language);
  if (!promise) {
    promise = LOADERS[language]().then(
      (module) => loaded.set({ [language]: module.default }),
      () => {
        // A failed chunk keeps antd's English texts; the next change of language tries again.
        loading.delete(language);
      },
    );
    loading.set(language, promise);
  }
  return promise;
}

export const useAntdLocale = (language: Language): Locale | undefined =>
  loaded.useSelector((locales) => locales[language]);
