import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import {
  PAYOUT_STATUSES,
  type Payout,
  PayoutListQuerySchema,
  type PayoutListResponse,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import {
  type FilterField,
  type ListColumn,
  ListPage,
  type ListSum,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { usePayouts } from '../api/get-payouts.ts';
import { PayoutDetailDrawer } from '../components/payout-detail-drawer.tsx';
import { PayoutStatusTag } from '../components/payout-status-tag.tsx';
import { ExportButton } from '../../exports/components/export-button.tsx';

type Filter = keyof (typeof PayoutListQuerySchema)['shape'];

/** Send money > Send money history: the merchant's payouts (console and gateway), newest first. */
export default function TransfersPage() {
  const { t } = useTranslation(['payouts', 'routes']);
  // Each row carries its currency; the sums do not, and a merchant has one currency.
  const merchantCurrency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;

  const columns: ListColumn<Payout>[] = [
    { key: 'tradeNo', title: t('columns.tradeNo'), render: (row) => row.trade_no },
    { key: 'outTradeNo', title: t('columns.outTradeNo'), render: (row) => row.out_trade_no },
    {
      key: 'amount',
      title: t('columns.amount'),
      align: 'right',
      render: (row) => <MoneyText value={row.amount} currency={row.currency} unit="code" />,
    },
    {
      key: 'fee',
      title: t('columns.fee'),
      align: 'right',
      render: (row) => <MoneyText value={row.fee} currency={row.currency} unit="code" />,
    },
    { key: 'status', title: t('columns.status'), render: (row) => <PayoutStatusTag status={row.status} /> },
    { key: 'payee', title: t('columns.payee'), render: (row) => row.payee_name },
    // Masked by the server (all but the last 4 characters); the console never has the full number.
    { key: 'account', title: t('columns.account'), render: (row) => row.account_no },
    { key: 'channel', title: t('columns.channel'), render: (row) => row.channel },
    { key: 'createdAt', title: t('columns.createdAt'), render: (row) => <DateTime value={row.created_at} /> },
    {
      key: 'finishedAt',
      title: t('columns.finishedAt'),
      render: (row) => <DateTime value={row.finished_at} />,
    },
  ];

  const filterFields: FilterField<Filter>[] = [
    {
      kind: 'text',
      name: 'trade_no',
      label: t('columns.tradeNo'),
      placeholder: t('filters.tradeNo'),
      width: 240,
    },
    {
      kind: 'text',
      name: 'out_trade_no',
      label: t('columns.outTradeNo'),
      placeholder: t('filters.outTradeNo'),
      width: 260,
    },
    {
      kind: 'select',
      name: 'status',
      label: t('columns.status'),
      placeholder: t('filters.status'),
      options: PAYOUT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: t('columns.time'),
      placeholder: [t('filters.startTime'), t('filters.endTime')],
    },
  ];

  // The payment amount, count and service fee of the whole filter, not just this page.
  const sums: ListSum<PayoutListResponse['meta']>[] = [
    {
      key: 'amount',
      label: t('sums.amount'),
      render: (meta) => <MoneyText value={meta.sums.amount} currency={merchantCurrency} unit="code" />,
    },
    {
      key: 'count',
      label: t('sums.count'),
      render: (meta) => <span>{meta.sums.count.toLocaleString('en-US')}</span>,
    },
    {
      key: 'fee',
      label: t('sums.fee'),
      render: (meta) => <MoneyText value={meta.sums.fee} currency={merchantCurrency} unit="code" />,
    },
  ];

  return (
    <ListPage
      title={t('routes:transfers')}
      name="payout"
      filters={PayoutListQuerySchema}
      useList={usePayouts}
      rowKey="trade_no"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      empty={{ none: t('empty.none'), filtered: t('empty.filtered') }}
      detail={{
        actionLabel: t('detail.open'),
        render: (row, close) => <PayoutDetailDrawer tradeNo={row?.trade_no} onClose={close} />,
      }}
      renderExport={(filters) => <ExportButton kind="payouts" filters={filters} />}
    />
  );
}
