import { Space, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import {
  type DailyReport,
  DailyReportListQuerySchema,
  type DailyReportListResponse,
} from '@paydesk/shared/reports/reports.schemas.ts';
import {
  type CellContext,
  type ColumnDeclaration,
  declaredListPage,
  type SumDeclaration,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import { dailyReportsApi } from '../api/get-daily-reports.ts';

/**
 * Funds > Transactions for exactly that day: the day's first and last second in the user's own zone (the
 * list reads its filter there), which may differ from the merchant's zone the report's days are in.
 */
export function dayTransactionsLink(
  row: Pick<DailyReport, 'starts_at' | 'ends_at'>,
  timeZone: string,
): string {
  const lastSecond = new Date(new Date(row.ends_at).getTime() - 1000);
  const search = new URLSearchParams({
    start_time: formatDateTime(row.starts_at, timeZone),
    end_time: formatDateTime(lastSecond, timeZone),
  });
  return `/fund/fundWater?${search}`;
}

/** An order figure: its amount, and under it the count and the fee (none on a day without orders). */
function OrdersCell({
  amount,
  count,
  fee,
  context,
}: {
  amount: string;
  count: number;
  fee: string;
  context: CellContext;
}) {
  const money = (value: string) => <MoneyText value={value} currency={context.merchantCurrency} />;
  if (count === 0) return money(amount);
  return (
    <Space orientation="vertical" size={0} style={{ alignItems: 'flex-end' }}>
      {money(amount)}
      <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
        {context.t('dailyReport.countFee', { count })} {money(fee)}
      </Typography.Text>
    </Space>
  );
}

type Sums = DailyReportListResponse['meta']['sums'];
/** The day's movements, each a column and a sum of the range: signed, money in or out. */
const MOVEMENTS = [
  'refunds',
  'collection_refunds',
  'top_ups',
  'withdrawals',
  'transfers',
  'freezes',
] as const;
const movementKey = (field: (typeof MOVEMENTS)[number]) =>
  ({
    refunds: 'refunds',
    collection_refunds: 'collectionRefunds',
    top_ups: 'topUps',
    withdrawals: 'withdrawals',
    transfers: 'transfers',
    freezes: 'freezes',
  })[field];

const ORDER_KINDS = ['collection', 'payout'] as const;

const columns: ColumnDeclaration<DailyReport>[] = [
  {
    key: 'date',
    title: 'dailyReport.columns.date',
    kind: 'custom',
    render: (row, { t, timeZone }) => (
      <Space size={4} wrap={false}>
        <Tooltip title={t('dailyReport.openDay')}>
          <Link
            to={dayTransactionsLink(row, timeZone)}
            aria-label={t('dailyReport.openDayOf', { date: row.date })}
          >
            {row.date}
          </Link>
        </Tooltip>
        {!row.final && <Tag color="processing">{t('dailyReport.live')}</Tag>}
      </Space>
    ),
  },
  {
    key: 'opening',
    title: 'dailyReport.columns.opening',
    kind: 'money',
    field: 'opening_balance',
    unit: 'none',
  },
  ...ORDER_KINDS.map((kind): ColumnDeclaration<DailyReport> => ({
    key: kind,
    title: `dailyReport.columns.${kind}`,
    kind: 'custom',
    render: (row, context) => (
      <OrdersCell
        amount={row[`${kind}_amount`]}
        count={row[`${kind}_count`]}
        fee={row[`${kind}_fee`]}
        context={context}
      />
    ),
  })),
  ...MOVEMENTS.map((field): ColumnDeclaration<DailyReport> => ({
    key: movementKey(field),
    title: `dailyReport.columns.${movementKey(field)}`,
    kind: 'money',
    field,
    signed: true,
    unit: 'none',
  })),
  {
    key: 'closing',
    title: 'dailyReport.columns.closing',
    kind: 'custom',
    render: (row, { merchantCurrency }) => (
      <Typography.Text strong>
        <MoneyText value={row.closing_balance} currency={merchantCurrency} />
      </Typography.Text>
    ),
  },
];

// The range's totals: where it opened, what moved it, where it closed.
const sums: SumDeclaration<Omit<DailyReportListResponse['meta'], 'sums'> & Sums>[] = [
  {
    key: 'range',
    label: 'dailyReport.sums.range',
    kind: 'custom',
    render: (meta) => `${meta.start_date} ~ ${meta.end_date}`,
  },
  {
    key: 'opening',
    label: 'dailyReport.columns.opening',
    kind: 'money',
    field: 'opening_balance',
    unit: 'none',
  },
  ...ORDER_KINDS.flatMap((kind): SumDeclaration<Sums>[] => [
    { key: kind, label: `dailyReport.sums.${kind}`, kind: 'money', field: `${kind}_amount`, unit: 'none' },
    {
      key: `${kind}Fee`,
      label: `dailyReport.sums.${kind}Fee`,
      kind: 'money',
      field: `${kind}_fee`,
      unit: 'none',
    },
  ]),
  ...MOVEMENTS.map((field): SumDeclaration<Sums> => ({
    key: movementKey(field),
    label: `dailyReport.columns.${movementKey(field)}`,
    kind: 'money',
    field,
    signed: true,
    unit: 'none',
  })),
  {
    key: 'closing',
    label: 'dailyReport.columns.closing',
    kind: 'money',
    field: 'closing_balance',
    unit: 'none',
  },
  { key: 'timezone', label: 'dailyReport.sums.timezone', kind: 'text', field: 'timezone' },
];

/** Funds > Daily reports: each day's opening balance, what moved it, and its closing balance. */
export default declaredListPage({
  name: 'daily-report',
  namespace: 'funds',
  title: 'routes:dailyReport',
  query: DailyReportListQuerySchema,
  api: dailyReportsApi,
  rowKey: 'date',
  // Ten columns of figures: narrower cells keep the closing balance on screen at 1280 px.
  size: 'middle',
  columns,
  filters: [
    {
      kind: 'dateRange',
      from: 'start_date',
      to: 'end_date',
      label: 'dailyReport.columns.date',
      placeholder: ['dailyReport.filters.start', 'dailyReport.filters.end'],
    },
  ],
  sums,
  export: 'daily_reports',
  empty: 'dailyReport.empty',
});
