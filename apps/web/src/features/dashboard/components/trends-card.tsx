import { Card, Col, Empty, Row, Segmented, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { COLLECTION_STATUSES } from '@paydesk/shared/collections/collections.schemas.ts';
import type { DashboardSeries, DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { type Currency, fromMinor, toMinor } from '@paydesk/shared/money.ts';
import { PAYOUT_STATUSES } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';
import { BarChart, LineChart } from './charts/day-chart.tsx';
import { SwatchMark } from './charts/chart-frame.tsx';
import { DonutChart } from './charts/donut-chart.tsx';

export const PERIODS = [7, 30] as const;
export type Period = (typeof PERIODS)[number];

/** Each kind's list, the status its paid orders have there, its statuses and its colour. */
const KINDS = {
  collection: {
    path: '/collection/payments',
    paid: 'paid',
    namespace: 'collections',
    statuses: COLLECTION_STATUSES,
    color: '#409EFF',
  },
  payout: {
    path: '/behalfPay/transfers',
    paid: 'success',
    namespace: 'payouts',
    statuses: PAYOUT_STATUSES,
    color: '#67C23A',
  },
} as const;
type Kind = keyof typeof KINDS;

const STATUS_COLORS: Record<string, string> = {
  paid: '#67C23A',
  success: '#67C23A',
  to_be_paid: '#409EFF',
  processing: '#409EFF',
  pending: '#909399',
  closed: '#C0C4CC',
  cancelled: '#C0C4CC',
  failed: '#F56C6C',
  rejected: '#E6A23C',
  refund_received: '#B37FEB',
};

/** The list that explains a figure: the kind's orders created in [from, to] (the user's days), by status. */
export function listLink(kind: Kind, from: string, to: string, status?: string): string {
  const search = new URLSearchParams({ ...(status ? { status } : {}), start_time: from, end_time: to });
  return `${KINDS[kind].path}?${search}`;
}

function sumMoney(points: DayPoint[], currency: Currency): string {
  return fromMinor(
    points.reduce((sum, p) => sum + toMinor(p.paid_amount, currency), 0n),
    currency,
  );
}

/**
 * The Dashboard's charts: paid amounts per day, the success rate per day and the orders by status, over the
 * last 7 or 30 days of the user's time zone. Every figure opens the list it comes from: a bar or a point
 * that day's orders, a slice (or its legend link) the orders of that status in the period.
 */
export function TrendsCard({
  series,
  currency,
}: {
  series: DashboardSeries | undefined;
  currency: Currency;
}) {
  const { t } = useTranslation(['dashboard', 'collections', 'payouts']);
  const navigate = useNavigate();
  const [period, setPeriod] = useState<Period>(7);

  const kinds = (['collection', 'payout'] as const).filter((kind) => series?.[kind]);
  const days = series?.days.slice(-period) ?? [];
  const pointsOf = (kind: Kind) => series?.[kind]?.slice(-period) ?? [];
  const from = days[0];
  const to = days.at(-1);
  const seriesName = (kind: Kind) => t(`dashboard:charts.${kind}`);
  const categories = days.map((day) => day.slice(5));
  const seriesOf = (kind: Kind, value: (point: DayPoint) => number | null) => ({
    name: seriesName(kind),
    color: KINDS[kind].color,
    values: pointsOf(kind).map(value),
  });

  const mixOf = (kind: Kind) => {
    const points = pointsOf(kind);
    return KINDS[kind].statuses
      .map((status) => ({
        status,
        count: points.reduce((sum, p) => sum + (p.statuses[status] ?? 0), 0),
      }))
      .filter((entry) => entry.count > 0);
  };

  const openDay = (kind: Kind, index: number, status?: string) => {
    const day = days[index];
    if (day) void navigate(listLink(kind, day, day, status));
  };

  const hasOrders = kinds.some((kind) => pointsOf(kind).some((p) => p.order_count > 0));

  return (
    <Card
      title={t('dashboard:charts.title', { count: period })}
      data-testid="dashboard-trends"
      extra={
        <Segmented<Period>
          value={period}
          onChange={setPeriod}
          options={PERIODS.map((value) => ({ value, label: t('dashboard:charts.period', { count: value }) }))}
          aria-label={t('dashboard:charts.periodLabel')}
        />
      }
    >
      {!series ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard:charts.loading')} />
      ) : (
        <>
          <Row gutter={[16, 16]} data-testid="trend-totals">
            {kinds.map((kind) => {
              const points = pointsOf(kind);
              const paidCount = points.reduce((sum, p) => sum + p.paid_count, 0);
              return (
                <Col xs={24} md={12} key={kind}>
                  <Link
                    to={listLink(kind, from!, to!, KINDS[kind].paid)}
                    aria-label={t(`dashboard:charts.openPaid.${kind}`)}
                    data-testid={`trend-total-${kind}`}
                  >
                    <Statistic
                      title={t(`dashboard:charts.paidIn.${kind}`, { count: period })}
                      value={sumMoney(points, currency)}
                      formatter={() => formatMoney(sumMoney(points, currency), currency)}
                      suffix={
                        <Typography.Text type="secondary" style={{ fontSize: 14 }}>
                          {currencyUnit(currency)} · {t('dashboard:charts.orders', { count: paidCount })}
                        </Typography.Text>
                      }
                    />
                  </Link>
                </Col>
              );
            })}
          </Row>
          {!hasOrders && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 16 }} data-testid="trends-empty">
              {t('dashboard:charts.empty', { count: period })}
            </Typography.Paragraph>
          )}
          <Row gutter={[24, 24]} style={{ marginTop: 16 }}>
            <Col xs={24} xl={12}>
              <Typography.Title level={5}>{t('dashboard:charts.amounts')}</Typography.Title>
              <BarChart
                categories={categories}
                // Display only (floats): the exact figures are in the lists a bar opens.
                series={kinds.map((kind) => seriesOf(kind, (p) => Number(p.paid_amount)))}
                formatValue={(value) => formatMoney(String(value ?? 0), currency)}
                label={t('dashboard:charts.amounts')}
                testId="chart-amounts"
                onClick={({ seriesIndex, dataIndex }) =>
                  openDay(kinds[seriesIndex], dataIndex, KINDS[kinds[seriesIndex]].paid)
                }
              />
            </Col>
            <Col xs={24} xl={12}>
              <Typography.Title level={5}>{t('dashboard:charts.successRate')}</Typography.Title>
              <LineChart
                categories={categories}
                series={kinds.map((kind) =>
                  seriesOf(kind, (p) =>
                    p.success_rate === null ? null : Math.round(Number(p.success_rate) * 10000) / 100,
                  ),
                )}
                max={100}
                formatTick={(value) => `${value}%`}
                formatValue={(value) => (value === null ? '—' : `${value}%`)}
                label={t('dashboard:charts.successRate')}
                testId="chart-success-rate"
                onClick={({ seriesIndex, dataIndex }) => openDay(kinds[seriesIndex], dataIndex)}
              />
            </Col>
          </Row>
          <Typography.Title level={5} style={{ marginTop: 32 }}>
            {t('dashboard:charts.mix')}
          </Typography.Title>
          <Row gutter={[24, 24]}>
            {kinds.map((kind) => {
              const mix = mixOf(kind);
              return (
                <Col xs={24} xl={12} key={kind} data-testid={`mix-${kind}`}>
                  <Row gutter={16} align="middle">
                    <Col xs={24} sm={12}>
                      <DonutChart
                        slices={mix.map(({ status, count }) => ({
                          name: t(`${KINDS[kind].namespace}:status.${status}`),
                          color: STATUS_COLORS[status],
                          value: count,
                        }))}
                        label={`${t('dashboard:charts.mix')}: ${seriesName(kind)}`}
                        testId={`chart-mix-${kind}`}
                        onClick={({ dataIndex }) => {
                          const entry = mix[dataIndex];
                          if (entry) void navigate(listLink(kind, from!, to!, entry.status));
                        }}
                      />
                    </Col>
                    <Col xs={24} sm={12}>
                      <Typography.Text strong>{seriesName(kind)}</Typography.Text>
                      {mix.length === 0 ? (
                        <Typography.Paragraph type="secondary">
                          {t('dashboard:charts.noOrders')}
                        </Typography.Paragraph>
                      ) : (
                        <Space orientation="vertical" size={4} style={{ display: 'flex', marginTop: 8 }}>
                          {mix.map(({ status, count }) => (
                            <Link key={status} to={listLink(kind, from!, to!, status)}>
                              <SwatchMark color={STATUS_COLORS[status]} />
                              {t(`${KINDS[kind].namespace}:status.${status}`)}:{' '}
                              {count.toLocaleString('en-US')}
                            </Link>
                          ))}
                        </Space>
                      )}
                    </Col>
                  </Row>
                </Col>
              );
            })}
          </Row>
        </>
      )}
    </Card>
  );
}
