import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from './api.ts';

// The list and its texts load when the bell first opens: the shell carries only the badge and its poll.
const NotificationList = lazy(() => import('./notification-list.tsx'));

/** The spec's badge maximum: past it the badge reads "99+" (console spec, General conventions). */
export const BADGE_MAX = 99;

/** The header bell (DESIGN 16): the unread count, and the newest notifications when opened. */
export function NotificationBell() {
  const { t } = useTranslation('layout');
  const unread = useUnreadCount() ?? 0;
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      destroyOnHidden
      content={
        <Suspense fallback={<Spin size="small" />}>
          <NotificationList unread={unread} />
        </Suspense>
      }
    >
      <Button
        type="text"
        aria-label={t('navbar.notifications', { count: unread })}
        data-testid="notification-bell"
        icon={
          <Badge count={unread} overflowCount={BADGE_MAX} size="small" data-testid="notification-badge">
            <BellOutlined />
          </Badge>
        }
      />
    </Popover>
  );
}
