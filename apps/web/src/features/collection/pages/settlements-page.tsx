import { useTranslation } from 'react-i18next';
import {
  type Settlement,
  SettlementListQuerySchema,
  type SettlementListResponse,
} from '@paydesk/shared/collections/collections.schemas.ts';
import type { Currency } from '@paydesk/shared/money.ts';
import { DateTime } from '../../../components/date-time.tsx';
import {
  type FilterField,
  type ListColumn,
  ListPage,
  type ListSum,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { useSettlements } from '../api/get-settlements.ts';
import { SettlementDetailDrawer } from '../components/settlement-detail-drawer.tsx';
import { settlementCycleLabel } from '../components/settlement-cycle.ts';
import { ExportButton } from '../../exports/components/export-button.tsx';

type Filter = keyof typeof SettlementListQuerySchema.shape;

/** Receive money > Settlements: the batches that moved paid orders into the balance, newest first. */
export default function SettlementsPage() {
  const { t } = useTranslation(['collection', 'routes']);
  // Each row carries its currency; the sums do not, and a merchant has one currency.
  const merchantCurrency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;

  const money = (value: string, currency: Currency) => (
    <MoneyText value={value} currency={currency} unit="code" />
  );
  const columns: ListColumn<Settlement>[] = [
    { key: 'settlementNo', title: t('settlements.columns.settlementNo'), render: (row) => row.settlement_no },
    { key: 'channel', title: t('settlements.columns.channel'), render: (row) => row.channel },
    { key: 'cycle', title: t('settlements.columns.cycle'), render: (row) => settlementCycleLabel(row.cycle) },
    { key: 'businessDate', title: t('settlements.columns.businessDate'), render: (row) => row.business_date },
    {
      key: 'orderCount',
      title: t('settlements.columns.orderCount'),
      align: 'right',
      render: (row) => row.order_count.toLocaleString('en-US'),
    },
    {
      key: 'gross',
      title: t('settlements.columns.gross'),
      align: 'right',
      render: (row) => money(row.gross, row.currency),
    },
    {
      key: 'fee',
      title: t('settlements.columns.fee'),
      align: 'right',
      render: (row) => money(row.fee, row.currency),
    },
    {
      key: 'net',
      title: t('settlements.columns.net'),
      align: 'right',
      render: (row) => money(row.net, row.currency),
    },
    {
      key: 'settledAt',
      title: t('settlements.columns.settledAt'),
      render: (row) => <DateTime value={row.settled_at} />,
    },
  ];

  const filterFields: FilterField<Filter>[] = [
    {
      kind: 'text',
      name: 'settlement_no',
      label: t('settlements.columns.settlementNo'),
      placeholder: t('settlements.filters.settlementNo'),
      width: 240,
    },
    {
      kind: 'text',
      name: 'channel',
      label: t('settlements.columns.channel'),
      placeholder: t('settlements.filters.channel'),
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: t('settlements.columns.time'),
      placeholder: [t('filters.startTime'), t('filters.endTime')],
    },
  ];

  // Gross, fee, net and the number of orders of the whole filter, not just this page.
  const sums: ListSum<SettlementListResponse['meta']>[] = [
    {
      key: 'gross',
      label: t('settlements.sums.gross'),
      render: (meta) => money(meta.sums.gross, merchantCurrency),
    },
    {
      key: 'fee',
      label: t('settlements.sums.fee'),
      render: (meta) => money(meta.sums.fee, merchantCurrency),
    },
    {
      key: 'net',
      label: t('settlements.sums.net'),
      render: (meta) => money(meta.sums.net, merchantCurrency),
    },
    {
      key: 'count',
      label: t('settlements.sums.count'),
      render: (meta) => <span>{meta.sums.count.toLocaleString('en-US')}</span>,
    },
  ];

  return (
    <ListPage
      title={t('routes:settlements')}
      name="settlement"
      filters={SettlementListQuerySchema}
      useList={useSettlements}
      rowKey="settlement_no"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      empty={{ none: t('settlements.empty.none'), filtered: t('settlements.empty.filtered') }}
      detail={{
        actionLabel: t('detail.open'),
        render: (row, close) => <SettlementDetailDrawer settlementNo={row?.settlement_no} onClose={close} />,
      }}
      renderExport={(filters) => <ExportButton kind="settlements" filters={filters} />}
    />
  );
}
