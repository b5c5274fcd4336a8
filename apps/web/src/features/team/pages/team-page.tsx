import { TeamOutlined, UserAddOutlined } from '@ant-design/icons';
import { Alert, App, Button, Dropdown, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@paydesk/shared/auth/roles.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { PageContainer, SectionCard } from '../../../components/page-container.tsx';
import { Table } from '../../../components/table.tsx';
import { type TeamAction, useChangeTeamUser } from '../api/change-team-user.ts';
import { type TeamMember, useTeam } from '../api/get-team.ts';
import { useInviteUser } from '../api/invite-user.ts';
import { TeamDialog } from '../components/team-dialog.tsx';

type Row = TeamMember & { key: string };

const STATUS_COLORS = { active: 'green', disabled: 'red', invited: 'blue' } as const;

/**
 * Settings > Team (DESIGN 16, ROOT): the merchant's users and open invitations; Invite, and per row
 * Change role, Disable or Enable, Reset two-factor, each confirmed with the payment password and a code.
 */
export default function TeamPage() {
  const { t } = useTranslation(['team', 'routes']);
  const { message } = App.useApp();
  const team = useTeam();
  const invite = useInviteUser();
  const change = useChangeTeamUser();
  const [isInviting, setInviting] = useState(false);
  const [pending, setPending] = useState<{ row: Row; action: TeamAction } | null>(null);

  const rows: Row[] = (team.data ?? []).map((member) => ({
    ...member,
    key: member.user_id !== null ? `user-${member.user_id}` : `invitation-${member.invitation_id}`,
  }));

  const actionsOf = (row: Row) => {
    if (row.user_id === null || row.is_self) return null;
    const items = [
      { key: 'role', label: t('actions.role') },
      row.status === 'disabled'
        ? { key: 'enable', label: t('actions.enable') }
        : { key: 'disable', label: t('actions.disable'), danger: true },
      { key: 'reset-two-factor', label: t('actions.resetTwoFactor'), disabled: !row.two_factor_enabled },
    ];
    return (
      <Dropdown
        trigger={['click']}
        menu={{ items, onClick: ({ key }) => setPending({ row, action: key as TeamAction }) }}
      >
        <Button size="small" aria-label={t('actions.label', { email: row.email })}>
          {t('actions.more')}
        </Button>
      </Dropdown>
    );
  };

  const dialogTexts = (action: TeamAction, row: Row) =>
    ({
      role: { title: t('dialogs.role.title', { email: row.email }), ok: t('dialogs.role.ok'), intro: null },
      disable: {
        title: t('dialogs.disable.title', { email: row.email }),
        ok: t('dialogs.disable.ok'),
        intro: t('dialogs.disable.intro'),
      },
      enable: {
        title: t('dialogs.enable.title', { email: row.email }),
        ok: t('dialogs.enable.ok'),
        intro: t('dialogs.enable.intro'),
      },
      'reset-two-factor': {
        title: t('dialogs.resetTwoFactor.title', { email: row.email }),
        ok: t('dialogs.resetTwoFactor.ok'),
        intro: t('dialogs.resetTwoFactor.intro'),
      },
    })[action];

  const texts = pending && dialogTexts(pending.action, pending.row);

  return (
    <PageContainer
      title={t('routes:team')}
      extra={
        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
          {t('invite')}
        </Button>
      }
    >
      <SectionCard
        title={
          <Space>
            <TeamOutlined />
            {t('title')}
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">{t('description')}</Typography.Paragraph>
        {team.isError && <Alert type="error" showIcon title={t('loadFailed')} style={{ marginBottom: 16 }} />}
        <Table<Row>
          rowKey="key"
          loading={team.isLoading}
          rows={rows}
          aria-label={t('title')}
          empty={<Empty description={t('empty')} />}
          columns={[
            {
              key: 'user',
              title: t('columns.user'),
              render: (row) => (
                <div>
                  <div>
                    {row.name ?? <Typography.Text type="secondary">{t('noName')}</Typography.Text>}
                    {row.is_self && (
                      <Tag color="gold" style={{ marginInlineStart: 8 }}>
                        {t('you')}
                      </Tag>
                    )}
                  </div>
                  <Typography.Text type="secondary">{row.email}</Typography.Text>
                </div>
              ),
            },
            {
              key: 'role',
              title: t('columns.role'),
              render: (row) => (
                <Space size={4} wrap>
                  {row.roles.map((role) => (
                    <Tag key={role} title={t(`roles.${role as Role}`)}>
                      {role}
                    </Tag>
                  ))}
                </Space>
              ),
            },
            {
              key: 'status',
              title: t('columns.status'),
              render: (row) => (
                <div>
                  <Tag color={STATUS_COLORS[row.status]}>{t(`status.${row.status}`)}</Tag>
                  {row.expires_at && (
                    <div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t('expires')} <DateTime value={row.expires_at} seconds={false} />
                      </Typography.Text>
                    </div>
                  )}
                </div>
              ),
            },
            {
              key: 'twoFactor',
              title: t('columns.twoFactor'),
              render: (row) =>
                row.status === 'invited' ? (
                  '—'
                ) : row.two_factor_enabled ? (
                  <Tag color="green">{t('twoFactor.bound')}</Tag>
                ) : (
                  <Tag color="orange">{t('twoFactor.notBound')}</Tag>
                ),
            },
            {
              key: 'lastLogin',
              title: t('columns.lastLogin'),
              render: (row) => (row.last_login_at ? <DateTime value={row.last_login_at} /> : t('never')),
            },
            { key: 'actions', title: t('columns.actions'), render: actionsOf, align: 'right' },
          ]}
        />
      </SectionCard>

      <TeamDialog
        open={isInviting}
        title={t('dialogs.invite.title')}
        okText={t('dialogs.invite.ok')}
        intro={<Typography.Paragraph type="secondary">{t('dialogs.invite.intro')}</Typography.Paragraph>}
        fields="invite"
        onSubmit={async (values) => {
          const invited = await invite.mutateAsync({
            email: values.email ?? '',
            role: values.role ?? 'VIEWER',
            payment_password: values.payment_password,
            code: values.code,
          });
          message.success(t('dialogs.invite.done', { email: invited.email }));
        }}
        onClose={() => setInviting(false)}
      />
      {pending && texts && (
        <TeamDialog
          open
          title={texts.title}
          okText={texts.ok}
          danger={pending.action === 'disable' || pending.action === 'reset-two-factor'}
          intro={
            texts.intro && <Alert type="warning" showIcon title={texts.intro} style={{ marginBottom: 16 }} />
          }
          fields={pending.action === 'role' ? 'role' : 'none'}
          initialRole={pending.row.roles[0] as Role}
          onSubmit={async (values) => {
            await change.mutateAsync({
              userId: pending.row.user_id!,
              action: pending.action,
              role: values.role,
              payment_password: values.payment_password,
              code: values.code,
            });
            message.success(t(`done.${pending.action}`, { email: pending.row.email }));
          }}
          onClose={() => setPending(null)}
        />
      )}
    </PageContainer>
  );
}
