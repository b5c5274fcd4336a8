import { Button, ColorPicker, Drawer, Input, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_THEME_COLOR,
  layoutSettings,
  resetLayoutSettings,
  updateLayoutSettings,
} from '../stores/layout-settings.ts';

const PRESET_COLORS = [DEFAULT_THEME_COLOR, '#1677FF', '#13C2C2', '#52C41A', '#FA8C16', '#F5222D', '#722ED1'];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="settings-drawer__row">
      <span>{label}</span>
      {children}
    </label>
  );
}

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('layout');
  const settings = layoutSettings.useSelector((s) => s);
  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      size={300}
      footer={<Button onClick={resetLayoutSettings}>{t('settings.reset')}</Button>}
    >
      <div className="settings-drawer">
        <Row label={t('settings.themeColor')}>
          <ColorPicker
            value={settings.themeColor}
            disabledAlpha
            presets={[{ label: t('settings.presetColors'), colors: PRESET_COLORS }]}
            onChangeComplete={(color) => updateLayoutSettings({ themeColor: color.toHexString() })}
          />
        </Row>
        <Row label={t('settings.tagsView')}>
          <Switch checked={settings.tagsView} onChange={(tagsView) => updateLayoutSettings({ tagsView })} />
        </Row>
        <Row label={t('settings.fixedHeader')}>
          <Switch
            checked={settings.fixedHeader}
            onChange={(fixedHeader) => updateLayoutSettings({ fixedHeader })}
          />
        </Row>
        <Row label={t('settings.sidebarLogo')}>
          <Switch
            checked={settings.sidebarLogo}
            onChange={(sidebarLogo) => updateLayoutSettings({ sidebarLogo })}
          />
        </Row>
        <Row label={t('settings.watermark')}>
          <Switch
            checked={settings.watermarkEnabled}
            onChange={(watermarkEnabled) => updateLayoutSettings({ watermarkEnabled })}
          />
        </Row>
        {settings.watermarkEnabled && (
          <Row label={t('settings.watermarkContent')}>
            <Input
              value={settings.watermarkContent}
              maxLength={40}
              placeholder={t('settings.watermarkPlaceholder')}
              onChange={(event) => updateLayoutSettings({ watermarkContent: event.target.value })}
            />
          </Row>
        )}
      </div>
    </Drawer>
  );
}
