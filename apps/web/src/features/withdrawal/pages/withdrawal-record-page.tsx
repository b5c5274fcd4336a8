import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import {
  WALLET_NETWORKS,
  WITHDRAWAL_STATUSES,
  type Withdrawal,
  WithdrawalListQuerySchema,
  type WithdrawalListResponse,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
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
import { useWithdrawals } from '../api/get-withdrawals.ts';
import { formatUsdt } from '../components/usdt.ts';
import { WithdrawalDetailDrawer } from '../components/withdrawal-detail-drawer.tsx';
import { WithdrawalStatusTag } from '../components/withdrawal-status-tag.tsx';

type Filter = keyof (typeof WithdrawalListQuerySchema)['shape'];

/** "TR7NHq…gjLj6t": long wallet addresses and hashes shortened in the table; the drawer has them whole. */
const shorten = (value: string) => (value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value);

/** Withdrawals > Withdrawal history: the merchant's withdrawals, newest first. */
export default function WithdrawalRecordPage() {
  const { t } = useTranslation(['withdrawal', 'routes']);
  const merchantCurrency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;

  const columns: ListColumn<Withdrawal>[] = [
    { key: 'no', title: t('columns.withdrawalNo'), render: (row) => row.withdrawal_no },
    {
      key: 'amount',
      title: t('columns.amount'),
      align: 'right',
      render: (row) => `${formatUsdt(row.amount)} ${row.currency}`,
    },
    {
      key: 'fee',
      title: t('columns.fee'),
      align: 'right',
      render: (row) => `${formatUsdt(row.fee)} ${row.currency}`,
    },
    {
      key: 'localTotal',
      title: t('columns.localTotal'),
      align: 'right',
      render: (row) => <MoneyText value={row.local_total} currency={row.local_currency} unit="code" />,
    },
    { key: 'network', title: t('columns.network'), render: (row) => row.network },
    {
      key: 'address',
      title: t('columns.address'),
      render: (row) => <span title={row.address}>{shorten(row.address)}</span>,
    },
    {
      key: 'status',
      title: t('columns.status'),
      render: (row) => <WithdrawalStatusTag status={row.status} />,
    },
    {
      key: 'txHashOrReason',
      title: `${t('columns.txHash')} / ${t('columns.reason')}`,
      render: (row) =>
        row.tx_hash ? (
          <Typography.Text copyable={{ text: row.tx_hash }} title={row.tx_hash}>
            {shorten(row.tx_hash)}
          </Typography.Text>
        ) : row.reject_reason ? (
          <Typography.Text type="danger" ellipsis={{ tooltip: row.reject_reason }} style={{ maxWidth: 240 }}>
            {row.reject_reason}
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
      name: 'withdrawal_no',
      label: t('columns.withdrawalNo'),
      placeholder: t('filters.withdrawalNo'),
      width: 260,
    },
    {
      kind: 'select',
      name: 'status',
      label: t('columns.status'),
      placeholder: t('filters.status'),
      options: WITHDRAWAL_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
    },
    {
      kind: 'select',
      name: 'network',
      label: t('columns.network'),
      placeholder: t('filters.network'),
      options: WALLET_NETWORKS.map((value) => ({ value, label: t(`networks.${value}`) })),
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: t('columns.time'),
      placeholder: [t('filters.startTime'), t('filters.endTime')],
    },
  ];

  const sums: ListSum<WithdrawalListResponse['meta']>[] = [
    {
      key: 'amount',
      label: t('sums.amount'),
      render: (meta) => <span>{formatUsdt(meta.sums.amount)} USDT</span>,
    },
    { key: 'fee', label: t('sums.fee'), render: (meta) => <span>{formatUsdt(meta.sums.fee)} USDT</span> },
    {
      key: 'count',
      label: t('sums.count'),
      render: (meta) => <span>{meta.sums.count.toLocaleString('en-US')}</span>,
    },
    {
      key: 'localTotal',
      label: t('sums.localTotal'),
      render: (meta) => <MoneyText value={meta.sums.local_total} currency={merchantCurrency} unit="code" />,
    },
  ];

  return (
    <ListPage
      title={t('routes:withdrawalRecord')}
      name="withdrawal"
      filters={WithdrawalListQuerySchema}
      useList={useWithdrawals}
      rowKey="withdrawal_no"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      renderExport={(filters) => <ExportButton kind="withdrawals" filters={filters} />}
      empty={{ none: t('empty.none'), filtered: t('empty.filtered') }}
      detail={{
        actionLabel: t('detail.open'),
        render: (row, close) => <WithdrawalDetailDrawer withdrawal={row} onClose={close} />,
      }}
    />
  );
}
