import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../../i18n/index.ts';
import { LANGUAGE_NAMES, LANGUAGES, resolveLanguage } from '../../../i18n/language.ts';

/** The login page's language switch: three plain buttons, so the login route stays small. */
export function LanguageLinks() {
  const { t, i18n } = useTranslation('layout');
  const current = resolveLanguage(i18n.language);
  return (
    <nav className="language-links" aria-label={t('navbar.language')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language === 'zh-cn' ? 'zh-CN' : language}
          aria-pressed={language === current}
          className={
            language === current
              ? 'language-links__item language-links__item--active'
              : 'language-links__item'
          }
          onClick={() => void changeLanguage(language)}
        >
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </nav>
  );
}
