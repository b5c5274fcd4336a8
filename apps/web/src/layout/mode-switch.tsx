import { Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { setMode, useMode } from '../stores/mode.ts';

/** The header's Test mode switch (DESIGN 12): every role may look at either mode. */
export function ModeSwitch() {
  const { t } = useTranslation('modes');
  const isTest = useMode() === 'test';
  return (
    <Tooltip title={t('switchHint')} placement="bottom">
      <label className={`mode-switch${isTest ? ' mode-switch--test' : ''}`}>
        <Switch
          size="small"
          checked={isTest}
          onChange={(checked) => setMode(checked ? 'test' : 'live')}
          data-testid="mode-switch"
        />
        <span className="mode-switch__label">{t('switch')}</span>
      </label>
    </Tooltip>
  );
}
