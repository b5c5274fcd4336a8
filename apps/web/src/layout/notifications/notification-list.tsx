import { Button, Empty, Spin, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CurrencySchema } from '@paydesk/shared/money.ts';
import { useTimeZone } from '../../components/date-time.tsx';
import { formatMoney } from '../../components/money-text.tsx';
import { formatDateTime } from '../../lib/date-time.ts';
import { type Notification, useMarkRead, useNotificationList } from './api.ts';
import './notifications.css';

/** One notification's text, from its type and parameters, in the console's language. */
export function describeNotification(t: TFunction<'notifications'>, item: Notification) {
  const p = item.params;
  // An amount as the console shows money: grouped, with its currency's decimals (2,000,000 VND).
  const currency = CurrencySchema.safeParse(p.currency);
  const values = {
    ...p,
    ...(p.amount && currency.success ? { amount: formatMoney(p.amount, currency.data) } : {}),
    mode: p.mode ? t(`mode.${p.mode}`, { defaultValue: p.mode }) : '',
    url: p.url || t('none'),
    ips: p.ips || t('none'),
  };
  return {
    title: t(`types.${item.type}.title`, values),
    text: t(`types.${item.type}.text`, values),
  };
}

/** The bell's panel (loaded when first opened): the newest notifications, "mark all read". */
export default function NotificationList({ unread }: { unread: number }) {
  const { t } = useTranslation('notifications');
  const timeZone = useTimeZone();
  const list = useNotificationList(true);
  const markRead = useMarkRead();
  const rows = list.data ?? [];

  let body;
  if (list.isPending) {
    body = (
      <div className="notification-list__state" data-testid="notifications-loading">
        <Spin />
      </div>
    );
  } else if (list.isError) {
    body = (
      <div className="notification-list__state">
        <Typography.Text type="danger">{t('error')}</Typography.Text>{' '}
        <Button type="link" size="small" onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <Empty
        className="notification-list__state"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('empty')}
      />
    );
  } else {
    body = (
      <ul className="notification-list__items">
        {rows.map((item) => {
          const { title, text } = describeNotification(t, item);
          const isUnread = item.read_at === null;
          return (
            <li key={item.id}>
              <button
                type="button"
                className={`notification-item${isUnread ? ' notification-item--unread' : ''}`}
                data-testid="notification-item"
                data-unread={isUnread}
                onClick={() => {
                  if (isUnread) markRead.mutate({ ids: [item.id] });
                }}
              >
                <span className="notification-item__title">
                  {isUnread && <span className="notification-item__dot" aria-label={t('unread')} />}
                  {title}
                </span>
                <span className="notification-item__text">{text}</span>
                <time className="notification-item__time" dateTime={item.created_at}>
                  {formatDateTime(item.created_at, timeZone, { seconds: false })}
                </time>
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="notification-list" data-testid="notification-list">
      <div className="notification-list__head">
        <Typography.Text strong>{t('title')}</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          loading={markRead.isPending && markRead.variables && 'all' in markRead.variables}
          onClick={() => markRead.mutate({ all: true })}
        >
          {t('markAllRead')}
        </Button>
      </div>
      {body}
    </div>
  );
}
