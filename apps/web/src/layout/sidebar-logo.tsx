import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LogoMark } from '../components/logo-mark.tsx';

export function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to="/" className={`sidebar-logo${collapsed ? ' sidebar-logo--collapsed' : ''}`}>
      <LogoMark />
      {!collapsed && <span className="sidebar-logo__title">{t('common:appName')}</span>}
    </Link>
  );
}
