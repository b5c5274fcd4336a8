import { AuditOutlined } from '@ant-design/icons';
import { Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SECURITY_EVENT_TYPES, type SecurityEventType } from '@paydesk/shared/security/security.schemas.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { SectionCard } from '../../../components/page-container.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { type SecurityEventItem, useSecurityEvents } from '../api/get-security-events.ts';

/** Settings > Security: the security log; ROOT sees every user of the merchant. */
export function SecurityLogCard() {
  const { t } = useTranslation('security');
  const isRoot = useCurrentUser()?.roles.includes('ROOT') ?? false;
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [type, setType] = useState<SecurityEventType | undefined>(undefined);
  const events = useSecurityEvents({ page, per_page: perPage, type });

  return (
    <SectionCard
      title={
        <Space>
          <AuditOutlined />
          {t('log.title')}
        </Space>
      }
      extra={
        <Select<SecurityEventType>
          allowClear
          placeholder={t('log.allEvents')}
          style={{ minWidth: 220 }}
          value={type}
          onChange={(value) => {
            setType(value);
            setPage(1);
          }}
          options={SECURITY_EVENT_TYPES.map((value) => ({
            value,
            label: t(`events.${value}`),
          }))}
          aria-label={t('log.event')}
        />
      }
    >
      <Typography.Paragraph type="secondary">
        {isRoot ? t('log.descriptionAll') : t('log.descriptionOwn')}
      </Typography.Paragraph>
      <DataTable<SecurityEventItem>
        rowKey="id"
        size="small"
        aria-label={t('log.title')}
        result={events.data}
        loading={events.isFetching}
        page={page}
        perPage={perPage}
        onPageChange={(nextPage, nextPerPage) => {
          setPage(nextPage);
          setPerPage(nextPerPage);
        }}
        columns={[
          {
            key: 'time',
            title: t('log.time'),
            render: (row) => <DateTime value={row.created_at} />,
          },
          {
            key: 'event',
            title: t('log.event'),
            render: (row) =>
              (SECURITY_EVENT_TYPES as readonly string[]).includes(row.type)
                ? t(`events.${row.type}`)
                : row.type,
          },
          ...(isRoot
            ? [
                {
                  key: 'user',
                  title: t('log.user'),
                  render: (row: SecurityEventItem) =>
                    row.user
                      ? `${row.user.name} (${row.user.email})`
                      : // A platform operator's decision (a top-up or a withdrawal reviewed) names the operator.
                        typeof row.detail?.operator === 'string'
                        ? t('log.operator', { name: row.detail.operator })
                        : '-',
                },
              ]
            : []),
          {
            key: 'ip',
            title: t('log.ip'),
            render: (row) => row.ip ?? '-',
          },
          {
            key: 'browser',
            title: t('log.browser'),
            render: (row) => row.browser ?? t('sessions.unknown'),
          },
        ]}
      />
    </SectionCard>
  );
}
