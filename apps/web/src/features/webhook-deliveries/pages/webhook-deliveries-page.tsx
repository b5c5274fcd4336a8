import { RedoOutlined, SendOutlined } from '@ant-design/icons';
import { App, Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  UNDELIVERED_LISTED_DAYS,
  type UndeliveredCallback,
  type UndeliveredCallbackListQuery,
  UndeliveredCallbackListQuerySchema,
  type UndeliveredCallbackListResponse,
} from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { CALLBACK_EVENT_TYPES } from '@paydesk/shared/collections/collections.schemas.ts';
import { localDate } from '@paydesk/shared/time-zone.ts';
import { DateTime, useTimeZone } from '../../../components/date-time.tsx';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { ListPage } from '../../../components/list-page/index.ts';
import { undeliveredCallbacksApi } from '../api/get-undelivered-callbacks.ts';
import { useResendCallback } from '../api/resend-callback.ts';
import { useResendMatchingCallbacks } from '../api/resend-matching-callbacks.ts';

const DAY_MS = 86_400_000;

/** What the last attempt got back: the receiver's HTTP status, or why no answer came. */
function LastResult({ row }: { row: UndeliveredCallback }) {
  if (row.last_status_code !== null) return <Tag color="error">HTTP {row.last_status_code}</Tag>;
  return <Typography.Text type="danger">{row.last_error ?? '-'}</Typography.Text>;
}

function ResendButton({ row }: { row: UndeliveredCallback }) {
  const { t } = useTranslation('webhooks');
  const { message } = App.useApp();
  const resend = useResendCallback();
  const onClick = async () => {
    await resend.mutateAsync(row.id);
    message.success(t('resent'));
  };
  return (
    <Button
      size="small"
      icon={<SendOutlined />}
      loading={resend.isPending && resend.variables === row.id}
      // A refusal is shown by the HTTP client's alert.
      onClick={() => onClick().catch(() => undefined)}
    >
      {t('resend')}
    </Button>
  );
}

/**
 * "Resend matching": every undelivered event of the list's filters (type, time range; without a range, the
 * whole 30 days) goes out again, after a confirmation that says how many.
 */
function ResendMatchingButton({ filters }: { filters: UndeliveredCallbackListQuery }) {
  const { t } = useTranslation('webhooks');
  const { modal, message } = App.useApp();
  const timeZone = useTimeZone();
  const { data } = undeliveredCallbacksApi.useList(filters);
  const resend = useResendMatchingCallbacks();
  const total = data?.meta.total ?? 0;
  const count = data?.meta.total_capped ? `${total}+` : String(total);

  const onClick = () =>
    modal.confirm({
      title: t('confirm.title'),
      content: t('confirm.content', { count }),
      okText: t('confirm.ok', { count }),
      cancelText: t('confirm.cancel'),
      onOk: async () => {
        const now = Date.now();
        const result = await resend.mutateAsync({
          type: filters.type,
          from: filters.start_time ?? localDate(new Date(now - UNDELIVERED_LISTED_DAYS * DAY_MS), timeZone),
          to: filters.end_time ?? localDate(new Date(now), timeZone),
        });
        message.success(t(result.has_more ? 'bulk.more' : 'bulk.done', { count: result.resent }));
      },
    });

  return (
    <Button
      type="primary"
      icon={<RedoOutlined />}
      disabled={total === 0}
      loading={resend.isPending}
      onClick={onClick}
    >
      {t('resendMatching')}
    </Button>
  );
}

/**
 * Settings > Webhook deliveries (DESIGN 6): the callbacks not delivered in the last 30 days (given up after
 * 3 days of retries, or still failing), resent one by one or all that match the filters.
 */
export default function WebhookDeliveriesPage() {
  const { t } = useTranslation(['webhooks', 'common', 'routes']);
  const canResend = useHasPerm('collection:notify');
  return (
    <ListPage<UndeliveredCallback, typeof UndeliveredCallbackListQuerySchema, UndeliveredCallbackListResponse>
      title={t('routes:webhookDeliveries')}
      name="webhook"
      filters={UndeliveredCallbackListQuerySchema}
      useList={undeliveredCallbacksApi.useList}
      rowKey="id"
      size="middle"
      filterFields={[
        {
          kind: 'select',
          name: 'type',
          label: t('filters.type'),
          placeholder: t('filters.allTypes'),
          options: CALLBACK_EVENT_TYPES.map((type) => ({
            value: type,
            label: t(`common:callbacks.types.${type}`),
          })),
        },
        {
          kind: 'timeRange',
          from: 'start_time',
          to: 'end_time',
          label: t('filters.createdAt'),
          placeholder: [t('filters.start'), t('filters.end')],
        },
      ]}
      sums={[
        {
          key: 'total',
          label: t('total'),
          render: (meta) => (meta.total_capped ? `${meta.total}+` : meta.total),
        },
      ]}
      columns={[
        {
          key: 'createdAt',
          title: t('columns.createdAt'),
          render: (row) => <DateTime value={row.created_at} />,
        },
        {
          key: 'event',
          title: t('columns.event'),
          render: (row) => t(`common:callbacks.types.${row.type}`),
        },
        { key: 'tradeNo', title: t('columns.tradeNo'), render: (row) => row.trade_no ?? '-' },
        { key: 'attempts', title: t('columns.attempts'), align: 'right', render: (row) => row.attempts },
        { key: 'lastResult', title: t('columns.lastResult'), render: (row) => <LastResult row={row} /> },
        {
          key: 'lastResponse',
          title: t('columns.lastResponse'),
          render: (row) =>
            row.last_response_excerpt ? (
              <Typography.Text ellipsis={{ tooltip: row.last_response_excerpt }} style={{ maxWidth: 200 }}>
                {row.last_response_excerpt}
              </Typography.Text>
            ) : (
              '-'
            ),
        },
        {
          key: 'nextAttempt',
          title: t('columns.nextAttempt'),
          render: (row) =>
            row.status === 'failed' || !row.next_attempt_at ? (
              <Tag color="error">{t('common:callbacks.statuses.failed')}</Tag>
            ) : (
              <DateTime value={row.next_attempt_at} />
            ),
        },
        ...(canResend
          ? [
              {
                key: 'actions',
                title: t('columns.actions'),
                render: (row: UndeliveredCallback) => <ResendButton row={row} />,
              },
            ]
          : []),
      ]}
      empty={{ none: t('empty.none'), filtered: t('empty.filtered') }}
      renderExport={(filters) => (canResend ? <ResendMatchingButton filters={filters} /> : null)}
    />
  );
}
