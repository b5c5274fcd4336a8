import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import {
  RECHARGE_NETWORKS,
  RECHARGE_STATUSES,
  type Recharge,
  RechargeListQuerySchema,
  type RechargeListResponse,
} from '@paydesk/shared/recharges/recharges.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import {
  type FilterField,
  type ListColumn,
  ListPage,
  type ListSum,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { ExportButton } from '../../exports/components/export-button.tsx';
import { useRecharges } from '../api/get-recharges.ts';
import { CreditedText, RechargeDetailDrawer } from '../components/recharge-detail-drawer.tsx';
import { RechargeStatusTag } from '../components/recharge-status-tag.tsx';
import { ScreenshotThumb } from '../components/screenshot-thumb.tsx';

type Filter = keyof (typeof RechargeListQuerySchema)['shape'];

/** Top-ups > Top-up history: the merchant's top-ups, their review and what each credited. */
export default function TopupRecordPage() {
  const { t } = useTranslation(['recharge', 'routes']);
  const merchantCurrency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;

  const columns: ListColumn<Recharge>[] = [
    { key: 'rechargeNo', title: t('columns.rechargeNo'), render: (row) => row.recharge_no },
    { key: 'currency', title: t('columns.currency'), render: (row) => row.currency },
    { key: 'network', title: t('columns.network'), render: (row) => row.network },
    {
      key: 'address',
      title: t('columns.address'),
      render: (row) => (
        <Typography.Text ellipsis={{ tooltip: row.address }} style={{ maxWidth: 160 }}>
          {row.address}
        </Typography.Text>
      ),
    },
    {
      key: 'amount',
      title: t('columns.amount'),
      align: 'right',
      render: (row) => <MoneyText value={row.amount} currency="USDT" unit="code" />,
    },
    {
      key: 'credited',
      title: t('columns.credited'),
      align: 'right',
      render: (row) => <CreditedText row={row} />,
    },
    {
      key: 'creditedUsd',
      title: t('columns.creditedUsd'),
      align: 'right',
      render: (row) =>
        row.credited_usd === null ? '-' : <MoneyText value={row.credited_usd} currency="USD" unit="code" />,
    },
    { key: 'rate', title: t('columns.rate'), align: 'right', render: (row) => row.rate ?? '-' },
    {
      key: 'screenshot',
      title: t('columns.screenshot'),
      render: (row) => <ScreenshotThumb rechargeNo={row.recharge_no} />,
    },
    {
      key: 'status',
      title: t('columns.status'),
      render: (row) => <RechargeStatusTag status={row.status} />,
    },
    {
      key: 'reason',
      title: t('columns.reason'),
      render: (row) =>
        row.reason ? (
          <Typography.Text ellipsis={{ tooltip: row.reason }} style={{ maxWidth: 180 }}>
            {row.reason}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
    { key: 'createdAt', title: t('columns.createdAt'), render: (row) => <DateTime value={row.created_at} /> },
  ];

  const filterFields: FilterField<Filter>[] = [
    {
      kind: 'text',
      name: 'recharge_no',
      label: t('columns.rechargeNo'),
      placeholder: t('filters.rechargeNo'),
      width: 260,
    },
    {
      kind: 'select',
      name: 'status',
      label: t('columns.status'),
      placeholder: t('filters.status'),
      options: RECHARGE_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
    },
    {
      kind: 'select',
      name: 'network',
      label: t('columns.network'),
      placeholder: t('filters.network'),
      options: RECHARGE_NETWORKS.map((value) => ({ value, label: value })),
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: t('columns.time'),
      placeholder: [t('filters.startTime'), t('filters.endTime')],
    },
  ];

  // The whole filter's figures: USDT submitted, how many, and what was credited in the merchant's currency.
  const sums: ListSum<RechargeListResponse['meta']>[] = [
    {
      key: 'amount',
      label: t('sums.amount'),
      render: (meta) => <MoneyText value={meta.sums.amount} currency="USDT" unit="code" />,
    },
    {
      key: 'count',
      label: t('sums.count'),
      render: (meta) => <span>{meta.sums.count.toLocaleString('en-US')}</span>,
    },
    {
      key: 'credited',
      label: t('sums.credited'),
      render: (meta) => <MoneyText value={meta.sums.credited} currency={merchantCurrency} unit="code" />,
    },
  ];

  return (
    <ListPage
      title={t('routes:rechargeRecord')}
      name="recharge"
      filters={RechargeListQuerySchema}
      useList={useRecharges}
      rowKey="recharge_no"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      renderExport={(filters) => <ExportButton kind="recharges" filters={filters} />}
      empty={{ none: t('empty.none'), filtered: t('empty.filtered') }}
      detail={{
        actionLabel: t('detail.open'),
        render: (row, close) => <RechargeDetailDrawer row={row} onClose={close} />,
      }}
    />
  );
}
