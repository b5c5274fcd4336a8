import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { DASHBOARD_PATH, dashboardRoute, findPageRoute, groupOf } from '../app/routes.ts';

export function AppBreadcrumb() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const route = findPageRoute(pathname);
  const group = groupOf(pathname);
  const items = [
    {
      key: 'home',
      title:
        pathname === DASHBOARD_PATH ? (
          t(dashboardRoute.titleKey)
        ) : (
          <Link to="/">{t(dashboardRoute.titleKey)}</Link>
        ),
    },
    ...(group ? [{ key: group.path, title: t(group.titleKey) }] : []),
    ...(route && route.path !== DASHBOARD_PATH ? [{ key: route.path, title: t(route.titleKey) }] : []),
  ];
  return <Breadcrumb className="app-breadcrumb" items={items} />;
}
