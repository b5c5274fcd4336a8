import { SendOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CallbackAttempt, CallbackEvent } from '@paydesk/shared/collections/collections.schemas.ts';
import { DateTime } from './date-time.tsx';
import { Table } from './table.tsx';
import './callback-events.css';

const STATUS_COLORS: Record<CallbackEvent['status'], string> = {
  pending: 'processing',
  delivered: 'success',
  failed: 'error',
};

/** What one attempt got back: the receiver's HTTP status, or why no answer came. */
function AttemptResult({ attempt }: { attempt: CallbackAttempt }) {
  if (attempt.status_code !== null) {
    const isOk = attempt.status_code >= 200 && attempt.status_code < 300;
    return <Tag color={isOk ? 'success' : 'error'}>HTTP {attempt.status_code}</Tag>;
  }
  return <Typography.Text type="danger">{attempt.error ?? '-'}</Typography.Text>;
}

function Attempts({ attempts }: { attempts: CallbackAttempt[] }) {
  const { t } = useTranslation('common');
  return (
    <Table<CallbackAttempt>
      size="small"
      rowKey="attempt"
      aria-label={t('callbacks.attempts')}
      rows={attempts}
      empty={t('callbacks.noAttempts')}
      columns={[
        { key: 'attempt', title: t('callbacks.attempt'), render: (row) => row.attempt },
        { key: 'result', title: t('callbacks.result'), render: (row) => <AttemptResult attempt={row} /> },
        {
          key: 'latency',
          title: t('callbacks.latency'),
          align: 'right',
          render: (row) => (row.latency_ms === null ? '-' : t('callbacks.latencyMs', { ms: row.latency_ms })),
        },
        { key: 'time', title: t('callbacks.time'), render: (row) => <DateTime value={row.created_at} /> },
        {
          key: 'response',
          title: t('callbacks.response'),
          render: (row) =>
            row.response_excerpt ? <pre className="callback-response">{row.response_excerpt}</pre> : '-',
        },
      ]}
    />
  );
}

/**
 * An order's callbacks (Standard Webhooks events) with every delivery attempt: collections and payouts
 * alike. With `resend` there is a button to send the latest event again; there is nothing to resend before
 * the first event exists.
 */
export function CallbackEvents({
  name,
  events,
  resend,
}: {
  /** Names the section tests find: `<name>-callbacks`. */
  name: string;
  events: CallbackEvent[];
  resend?: { onResend: () => Promise<unknown>; isPending: boolean };
}) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();

  const onResend = async () => {
    await resend?.onResend();
    message.success(t('callbacks.resent'));
  };

  return (
    <section data-testid={`${name}-callbacks`}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('callbacks.title')}
        </Typography.Title>
        {resend && events.length > 0 && (
          <Button
            icon={<SendOutlined />}
            loading={resend.isPending}
            // A failed resend is shown by the HTTP client's alert; nothing more to do here.
            onClick={() => onResend().catch(() => undefined)}
          >
            {t('callbacks.resend')}
          </Button>
        )}
      </Space>
      {events.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('callbacks.none')} />
      ) : (
        events.map((event) => (
          <Card
            key={event.id}
            size="small"
            style={{ marginBottom: 12 }}
            title={t(`callbacks.types.${event.type}`)}
            extra={<Tag color={STATUS_COLORS[event.status]}>{t(`callbacks.statuses.${event.status}`)}</Tag>}
          >
            <Descriptions
              column={1}
              size="small"
              style={{ marginBottom: 12 }}
              items={[
                {
                  key: 'url',
                  label: t('callbacks.url'),
                  children: <Typography.Text copyable>{event.url}</Typography.Text>,
                },
                {
                  key: 'createdAt',
                  label: t('callbacks.createdAt'),
                  children: <DateTime value={event.created_at} />,
                },
                ...(event.next_attempt_at
                  ? [
                      {
                        key: 'next',
                        label: t('callbacks.nextAttemptAt'),
                        children: <DateTime value={event.next_attempt_at} />,
                      },
                    ]
                  : []),
              ]}
            />
            <Typography.Text strong>{t('callbacks.attempts')}</Typography.Text>
            <Attempts attempts={event.attempts} />
          </Card>
        ))
      )}
    </section>
  );
}
