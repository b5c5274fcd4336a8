import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../lib/auth/get-current-user.ts';
import { logout } from '../lib/auth/logout.ts';

export function UserMenu() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const user = useCurrentUser();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'profile', icon: <UserOutlined />, label: t('navbar.profile') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('navbar.logout') },
        ],
        onClick: async ({ key }) => {
          if (key === 'profile') return navigate('/setting/personalData');
          // The login page forgets the session once this layout is gone.
          await logout();
          await navigate('/login', { replace: true });
        },
      }}
    >
      <button type="button" className="user-menu" aria-label={t('navbar.userMenu')} data-testid="user-menu">
        <Avatar size="small" icon={<UserOutlined />} />
        <span className="user-menu__name">{user?.name}</span>
        <DownOutlined className="user-menu__caret" />
      </button>
    </Dropdown>
  );
}
