import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage.ts';
import { htmlLang, type Language, LANGUAGE_STORAGE_KEY, resolveLanguage } from './language.ts';
import { ENTRY_NAMESPACES } from './namespaces.ts';
import { layoutNamespaces, loadNamespace } from './resources.ts';

function applyLanguage(language: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

// Texts load in the user's language only: the entry's namespaces at start, the layout's with the layout.
// A change of language loads every namespace loaded so far in the new language, then switches.
const textFiles: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, namespace, callback) => {
    loadNamespace(language, namespace).then(
      (texts) => callback(null, texts),
      (error: Error) => callback(error, false),
    );
  },
};

const initial = resolveLanguage(readStorage(LANGUAGE_STORAGE_KEY));
applyLanguage(initial);

/** Settles once the entry's texts are loaded in the user's language; main.tsx renders after it. */
export const entryTextsLoaded: Promise<unknown> = i18n
  .use(textFiles)
  .use(initReactI18next)
  .init({
    ns: [...ENTRY_NAMESPACES],
    defaultNS: 'common',
    lng: initial,
    // Every language has every key (i18n/completeness.test.ts): no second language to load as a fallback.
    fallbackLng: false,
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

/** The texts of the layout and its pages, in the user's language: the layout waits for them. */
export const loadLayoutTexts = (): Promise<void> => i18n.loadNamespaces(layoutNamespaces);

export const currentLanguage = (): Language => resolveLanguage(i18n.resolvedLanguage ?? i18n.language);

export async function changeLanguage(value: string): Promise<void> {
  const language = resolveLanguage(value);
  writeStorage(LANGUAGE_STORAGE_KEY, language);
  applyLanguage(language);
  await i18n.changeLanguage(language);
}

export default i18n;
