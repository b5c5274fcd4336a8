import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage.ts';
import { htmlLang, type Language, LANGUAGE_STORAGE_KEY, resolveLanguage } from './language.ts';
import { namespaces, resources } from './resources.ts';

function applyLanguage(language: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

const initial = resolveLanguage(readStorage(LANGUAGE_STORAGE_KEY));
applyLanguage(initial);

void i18n.use(initReactI18next).init({
  resources,
  ns: namespaces,
  defaultNS: 'common',
  lng: initial,
  fallbackLng: 'en',
  supportedLngs: ['zh-cn', 'en', 'vi'],
  lowerCaseLng: true,
  load: 'currentOnly',
  returnEmptyString: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  // A key missing from every language is a bug: say so where the browser tests look (the console).
  saveMissing: true,
  missingKeyHandler: (lngs, ns, key) =>
    console.error(`Missing translation: ${ns}:${key} (${lngs.join(',')})`),
});

export const currentLanguage = (): Language => resolveLanguage(i18n.resolvedLanguage ?? i18n.language);

export async function changeLanguage(value: string): Promise<void> {
  const language = resolveLanguage(value);
  writeStorage(LANGUAGE_STORAGE_KEY, language);
  applyLanguage(language);
  await i18n.changeLanguage(language);
}

export default i18n;
