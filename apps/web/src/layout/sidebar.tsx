import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { allowedMenu } from '../app/route-access.ts';
import { groupOf } from '../app/routes.ts';
import { useCurrentUser } from '../lib/auth/get-current-user.ts';
import { layoutSettings } from '../stores/layout-settings.ts';
import { MENU_ICONS } from './menu-icons.tsx';
import { SidebarLogo } from './sidebar-logo.tsx';

type MenuItem = Required<MenuProps>['items'][number];

export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const perms = useCurrentUser()?.perms;
  const showLogo = layoutSettings.useSelector((s) => s.sidebarLogo);
  const activeGroup = groupOf(pathname)?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(activeGroup ? [activeGroup] : []);
  const [lastGroup, setLastGroup] = useState(activeGroup);
  if (activeGroup !== lastGroup) {
    setLastGroup(activeGroup);
    if (activeGroup && !openKeys.includes(activeGroup)) setOpenKeys([...openKeys, activeGroup]);
  }

  const items = useMemo<MenuItem[]>(
    () =>
      allowedMenu(perms ?? []).map((entry) =>
        entry.kind === 'page'
          ? {
              key: entry.route.path,
              icon: entry.route.icon && MENU_ICONS[entry.route.icon],
              label: t(entry.route.titleKey),
            }
          : {
              key: entry.group.path,
              icon: MENU_ICONS[entry.group.icon],
              label: t(entry.group.titleKey),
              children: entry.children.map((child) => ({ key: child.path, label: t(child.titleKey) })),
            },
      ),
    [perms, t],
  );

  return (
    <div className="sidebar">
      {showLogo && <SidebarLogo collapsed={collapsed} />}
      <nav className="sidebar__menu" aria-label={t('layout:sidebar.label')}>
        <Menu
          // Collapsed, the groups open as pop-ups on hover; expanded, the open groups are remembered.
          key={collapsed ? 'collapsed' : 'expanded'}
          mode="inline"
          selectedKeys={[pathname]}
          {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
          items={items}
          onClick={({ key }) => {
            navigate(key);
            onNavigate?.();
          }}
        />
      </nav>
    </div>
  );
}
