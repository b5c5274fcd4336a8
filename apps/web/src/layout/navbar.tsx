import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { appSettings, setMobileMenuOpen, toggleSidebar } from '../stores/app-settings.ts';
import { layoutSettings } from '../stores/layout-settings.ts';
import { AppBreadcrumb } from './breadcrumb.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { ModeSwitch } from './mode-switch.tsx';
import { NotificationBell } from './notifications/notification-bell.tsx';
import { SizeSwitch } from './size-switch.tsx';
import { UserMenu } from './user-menu.tsx';

export function Navbar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useTranslation('layout');
  const device = appSettings.useSelector((s) => s.device);
  const sidebarOpened = appSettings.useSelector((s) => s.sidebarOpened);
  const showSettings = layoutSettings.useSelector((s) => s.showSettings);
  const isMobile = device === 'mobile';
  const isExpanded = isMobile ? false : sidebarOpened;
  return (
    <header className="navbar">
      <Button
        type="text"
        className="navbar__hamburger"
        data-testid="hamburger"
        aria-label={t('navbar.toggleSidebar')}
        aria-expanded={isExpanded}
        icon={isExpanded ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={() => (isMobile ? setMobileMenuOpen(true) : toggleSidebar())}
      />
      {!isMobile && <AppBreadcrumb />}
      <div className="navbar__right">
        <ModeSwitch />
        <LanguageSwitch />
        {!isMobile && <SizeSwitch />}
        <NotificationBell />
        {showSettings && (
          <Tooltip title={t('settings.title')}>
            <Button
              type="text"
              icon={<SettingOutlined />}
              aria-label={t('settings.title')}
              data-testid="settings-button"
              onClick={onOpenSettings}
            />
          </Tooltip>
        )}
        <UserMenu />
      </div>
    </header>
  );
}
