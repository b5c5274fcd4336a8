import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/index.ts';
import { LANGUAGE_NAMES, LANGUAGES, resolveLanguage } from '../i18n/language.ts';

export function LanguageSwitch({ showName = false }: { showName?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = resolveLanguage(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({
          key: language,
          label: LANGUAGE_NAMES[language],
          lang: language,
        })),
        onClick: ({ key }) => void changeLanguage(key),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('layout:navbar.language')}
        data-testid="language-switch"
      >
        {showName ? LANGUAGE_NAMES[current] : null}
      </Button>
    </Dropdown>
  );
}
