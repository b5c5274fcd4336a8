import { useTranslation } from 'react-i18next';
import {
  FUND_FLOW_TYPES,
  type FundFlow,
  FundFlowListQuerySchema,
  type FundFlowListResponse,
} from '@paydesk/shared/funds/funds.schemas.ts';
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
import { useFundFlows } from '../api/get-fund-flows.ts';
import { FundFlowDetailDrawer } from '../components/fund-flow-detail-drawer.tsx';
import { FundFlowTypeTag } from '../components/fund-flow-type-tag.tsx';
import { ExportButton } from '../../exports/components/export-button.tsx';

type Filter = keyof typeof FundFlowListQuerySchema.shape;

/** Funds > Transactions: every movement of the merchant's available balance, newest first. */
export default function FundWaterPage() {
  const { t } = useTranslation(['funds', 'routes']);
  const currency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;

  const columns: ListColumn<FundFlow>[] = [
    { key: 'type', title: t('columns.type'), render: (row) => <FundFlowTypeTag type={row.type} /> },
    {
      key: 'amount',
      title: t('columns.amount'),
      align: 'right',
      render: (row) => <MoneyText value={row.amount} currency={currency} signed unit="code" />,
    },
    {
      key: 'availableAfter',
      title: t('columns.availableAfter'),
      align: 'right',
      render: (row) => <MoneyText value={row.available_after} currency={currency} unit="code" />,
    },
    { key: 'refNo', title: t('columns.refNo'), render: (row) => row.ref_no ?? '-' },
    { key: 'note', title: t('columns.note'), render: (row) => row.note ?? '-' },
    { key: 'time', title: t('columns.time'), render: (row) => <DateTime value={row.created_at} /> },
  ];

  const filterFields: FilterField<Filter>[] = [
    {
      kind: 'select',
      name: 'type',
      label: t('columns.type'),
      placeholder: t('filters.type'),
      width: 240,
      options: FUND_FLOW_TYPES.map((value) => ({ value, label: t(`types.${value}`) })),
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: t('columns.time'),
      placeholder: [t('filters.startTime'), t('filters.endTime')],
    },
    { kind: 'text', name: 'ref_no', label: t('columns.refNo'), placeholder: t('filters.refNo'), width: 260 },
  ];

  // Money in, money out and the number of transactions of the whole filter, not just this page.
  const sums: ListSum<FundFlowListResponse['meta']>[] = [
    {
      key: 'moneyIn',
      label: t('sums.moneyIn'),
      render: (meta) => <MoneyText value={meta.sums.money_in} currency={currency} signed unit="code" />,
    },
    {
      key: 'moneyOut',
      label: t('sums.moneyOut'),
      render: ({ sums: { money_out: out } }) => (
        <MoneyText value={out.startsWith('-') ? out : `-${out}`} currency={currency} signed unit="code" />
      ),
    },
    {
      key: 'entries',
      label: t('sums.entries'),
      render: (meta) => <span>{meta.total.toLocaleString('en-US')}</span>,
    },
  ];

  return (
    <ListPage
      title={t('routes:fundWater')}
      name="fund-flow"
      filters={FundFlowListQuerySchema}
      useList={useFundFlows}
      rowKey="id"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      empty={{ none: t('empty.none'), filtered: t('empty.filtered') }}
      detail={{
        actionLabel: t('detail.open'),
        render: (row, close) => <FundFlowDetailDrawer id={row?.id} onClose={close} />,
      }}
      renderExport={(filters) => <ExportButton kind="fund_flows" filters={filters} />}
    />
  );
}
