import { DesktopOutlined } from '@ant-design/icons';
import { App, Button, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/date-time.tsx';
import { SectionCard } from '../../../components/page-container.tsx';
import { Table } from '../../../components/table.tsx';
import { endOtherSessions } from '../api/end-other-sessions.ts';
import { securityEventsQueryKey } from '../api/get-security-events.ts';
import { type SessionItem, sessionsQueryKey, useSessions } from '../api/get-sessions.ts';
import { usePasswordConfirmation } from './use-password-confirmation.tsx';

/** Settings > Security: where this account is signed in, and "sign out other devices". */
export function SessionsCard() {
  const { t } = useTranslation('security');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const { withConfirmation } = usePasswordConfirmation();
  const [isEnding, setIsEnding] = useState(false);

  const signOutOthers = () =>
    modal.confirm({
      title: t('sessions.signOutOthers'),
      content: t('sessions.signOutConfirm'),
      okText: t('sessions.signOutOthers'),
      cancelText: t('confirmPassword.cancel'),
      centered: true,
      onOk: () => {
        void (async () => {
          setIsEnding(true);
          try {
            const ended = await withConfirmation(endOtherSessions);
            if (ended === undefined) return;
            message.success(t('sessions.signedOut', { count: ended }));
            await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
            await queryClient.invalidateQueries({
              queryKey: securityEventsQueryKey,
            });
          } finally {
            setIsEnding(false);
          }
        })();
      },
    });

  const hasOthers = (sessions.data ?? []).some((s) => !s.is_current);

  return (
    <SectionCard
      title={
        <Space>
          <DesktopOutlined />
          {t('sessions.title')}
        </Space>
      }
      extra={
        <Button onClick={signOutOthers} disabled={!hasOthers} loading={isEnding}>
          {t('sessions.signOutOthers')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('sessions.description')}</Typography.Paragraph>
      <Table<SessionItem>
        rowKey="id"
        size="small"
        loading={sessions.isLoading}
        rows={sessions.data ?? []}
        aria-label={t('sessions.title')}
        columns={[
          {
            key: 'browser',
            title: t('sessions.browser'),
            render: (row) => (
              <Space>
                <span title={row.user_agent ?? undefined}>
                  {[row.browser, row.platform].filter(Boolean).join(' · ') || t('sessions.unknown')}
                </span>
                {row.is_current && <Tag color="blue">{t('sessions.current')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'ip',
            title: t('sessions.ip'),
            render: (row) => row.ip ?? '-',
          },
          {
            key: 'lastActive',
            title: t('sessions.lastActive'),
            render: (row) => <DateTime value={row.last_active_at} />,
          },
          {
            key: 'signedIn',
            title: t('sessions.signedIn'),
            render: (row) => <DateTime value={row.created_at} />,
          },
        ]}
      />
    </SectionCard>
  );
}
