import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AttemptOutcome, ChannelAttempt } from '@paydesk/shared/channels/attempts.schemas.ts';
import { DateTime } from './date-time.tsx';
import { Table } from './table.tsx';

const OUTCOME_COLORS: Record<AttemptOutcome, string> = {
  pending: 'processing',
  processing: 'processing',
  succeeded: 'success',
  failed: 'error',
  expired: 'default',
  cancelled: 'default',
  returned: 'warning',
};

/**
 * An order's attempts on channels (DESIGN 13), collections and payouts alike: on which channel, the
 * channel's own reference, how it ended, when it started and when it last changed.
 */
export function ChannelAttempts({ name, attempts }: { name: string; attempts: ChannelAttempt[] }) {
  const { t } = useTranslation('common');
  return (
    <section data-testid={`${name}-attempts`}>
      <Typography.Title level={5}>{t('channelAttempts.title')}</Typography.Title>
      <Table<ChannelAttempt & { key: number }>
        size="small"
        rowKey="key"
        aria-label={t('channelAttempts.title')}
        rows={attempts.map((attempt, key) => ({ ...attempt, key }))}
        empty={t('channelAttempts.none')}
        columns={[
          { key: 'channel', title: t('channelAttempts.channel'), render: (row) => row.channel },
          {
            key: 'ref',
            title: t('channelAttempts.providerRef'),
            render: (row) =>
              row.provider_ref ? <Typography.Text copyable>{row.provider_ref}</Typography.Text> : '-',
          },
          {
            key: 'outcome',
            title: t('channelAttempts.outcome'),
            render: (row) => (
              <Tag color={OUTCOME_COLORS[row.outcome]}>{t(`channelAttempts.outcomes.${row.outcome}`)}</Tag>
            ),
          },
          {
            key: 'created',
            title: t('channelAttempts.createdAt'),
            render: (row) => <DateTime value={row.created_at} />,
          },
          {
            key: 'updated',
            title: t('channelAttempts.updatedAt'),
            render: (row) => <DateTime value={row.updated_at} />,
          },
        ]}
      />
    </section>
  );
}
