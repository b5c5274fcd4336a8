import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Currency } from '@paydesk/shared/money.ts';
import {
  type DailyReport,
  DailyReportListQuerySchema,
  type DailyReportListResponse,
} from '@paydesk/shared/reports/reports.schemas.ts';
import { useTimeZone } from '../../../components/date-time.tsx';
import {
  type FilterField,
  type ListColumn,
  ListPage,
  type ListSum,
} from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { ExportButton } from '../../exports/components/export-button.tsx';
import { useDailyReports } from '../api/get-daily-reports.ts';

type Filter = 'start_date' | 'end_date';

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

/** Funds > Daily reports: each day's opening balance, what moved it, and its closing balance. */
export default function DailyReportPage() {
  const { t } = useTranslation(['funds', 'routes']);
  const currency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;
  const timeZone = useTimeZone();
  const money = (value: string, signed = false) => (
    <MoneyText value={value} currency={currency} signed={signed} />
  );
  // An order figure: its amount, and under it the count and the fee (none on a day without orders).
  const orders = (amount: string, count: number, fee: string) =>
    count === 0 ? (
      money(amount)
    ) : (
      <Space orientation="vertical" size={0} style={{ alignItems: 'flex-end' }}>
        {money(amount)}
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {t('dailyReport.countFee', { count })} <MoneyText value={fee} currency={currency} />
        </Typography.Text>
      </Space>
    );

  const columns: ListColumn<DailyReport>[] = [
    {
      key: 'date',
      title: t('dailyReport.columns.date'),
      render: (row) => (
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
      title: t('dailyReport.columns.opening'),
      align: 'right',
      render: (row) => money(row.opening_balance),
    },
    {
      key: 'collection',
      title: t('dailyReport.columns.collection'),
      align: 'right',
      render: (row) => orders(row.collection_amount, row.collection_count, row.collection_fee),
    },
    {
      key: 'payout',
      title: t('dailyReport.columns.payout'),
      align: 'right',
      render: (row) => orders(row.payout_amount, row.payout_count, row.payout_fee),
    },
    {
      key: 'refunds',
      title: t('dailyReport.columns.refunds'),
      align: 'right',
      render: (row) => money(row.refunds, true),
    },
    {
      key: 'topUps',
      title: t('dailyReport.columns.topUps'),
      align: 'right',
      render: (row) => money(row.top_ups, true),
    },
    {
      key: 'withdrawals',
      title: t('dailyReport.columns.withdrawals'),
      align: 'right',
      render: (row) => money(row.withdrawals, true),
    },
    {
      key: 'transfers',
      title: t('dailyReport.columns.transfers'),
      align: 'right',
      render: (row) => money(row.transfers, true),
    },
    {
      key: 'freezes',
      title: t('dailyReport.columns.freezes'),
      align: 'right',
      render: (row) => money(row.freezes, true),
    },
    {
      key: 'closing',
      title: t('dailyReport.columns.closing'),
      align: 'right',
      render: (row) => <Typography.Text strong>{money(row.closing_balance)}</Typography.Text>,
    },
  ];

  const filterFields: FilterField<Filter>[] = [
    {
      kind: 'dateRange',
      from: 'start_date',
      to: 'end_date',
      label: t('dailyReport.columns.date'),
      placeholder: [t('dailyReport.filters.start'), t('dailyReport.filters.end')],
    },
  ];

  // The range's totals: where it opened, what moved it, where it closed.
  type Meta = DailyReportListResponse['meta'];
  const sums: ListSum<Meta>[] = [
    {
      key: 'range',
      label: t('dailyReport.sums.range'),
      render: (meta) => <span>{`${meta.start_date} ~ ${meta.end_date}`}</span>,
    },
    {
      key: 'opening',
      label: t('dailyReport.columns.opening'),
      render: (meta) => money(meta.sums.opening_balance),
    },
    {
      key: 'collection',
      label: t('dailyReport.sums.collection'),
      render: (meta) => money(meta.sums.collection_amount),
    },
    {
      key: 'collectionFee',
      label: t('dailyReport.sums.collectionFee'),
      render: (meta) => money(meta.sums.collection_fee),
    },
    { key: 'payout', label: t('dailyReport.sums.payout'), render: (meta) => money(meta.sums.payout_amount) },
    {
      key: 'payoutFee',
      label: t('dailyReport.sums.payoutFee'),
      render: (meta) => money(meta.sums.payout_fee),
    },
    {
      key: 'refunds',
      label: t('dailyReport.columns.refunds'),
      render: (meta) => money(meta.sums.refunds, true),
    },
    {
      key: 'topUps',
      label: t('dailyReport.columns.topUps'),
      render: (meta) => money(meta.sums.top_ups, true),
    },
    {
      key: 'withdrawals',
      label: t('dailyReport.columns.withdrawals'),
      render: (meta) => money(meta.sums.withdrawals, true),
    },
    {
      key: 'transfers',
      label: t('dailyReport.columns.transfers'),
      render: (meta) => money(meta.sums.transfers, true),
    },
    {
      key: 'freezes',
      label: t('dailyReport.columns.freezes'),
      render: (meta) => money(meta.sums.freezes, true),
    },
    {
      key: 'closing',
      label: t('dailyReport.columns.closing'),
      render: (meta) => money(meta.sums.closing_balance),
    },
    {
      key: 'timezone',
      label: t('dailyReport.sums.timezone'),
      render: (meta) => <span>{meta.timezone}</span>,
    },
  ];

  // Ten columns of figures: narrower cells keep the closing balance on screen at 1280 px.
  return (
    <ListPage
      title={t('routes:dailyReport')}
      name="daily-report"
      filters={DailyReportListQuerySchema}
      useList={useDailyReports}
      rowKey="date"
      size="middle"
      columns={columns}
      filterFields={filterFields}
      sums={sums}
      renderExport={(filters) => <ExportButton kind="daily_reports" filters={filters} />}
      empty={{ none: t('dailyReport.empty.none'), filtered: t('dailyReport.empty.filtered') }}
    />
  );
}
