export const LANGUAGES = ['zh-cn', 'en', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'zh-cn';
export const LANGUAGE_STORAGE_KEY = 'language';

/** Each language named in itself, as the language switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'zh-cn': '简体中文',
  vi: 'Tiếng Việt',
};

/** The spec's rule: `en` selects English, `vi` Vietnamese, any other value (or none) Chinese. */
export function resolveLanguage(value: unknown): Language {
  if (value === 'en') return 'en';
  if (value === 'vi') return 'vi';
  return 'zh-cn';
}

/** The value for <html lang>. */
export const htmlLang = (language: Language): string => ({ en: 'en', 'zh-cn': 'zh-CN', vi: 'vi' })[language];
