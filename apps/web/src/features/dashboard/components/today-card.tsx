import { RightOutlined } from '@ant-design/icons';
import { Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TodayCollection } from '@paydesk/shared/collections/collections.schemas.ts';
import { CardLink, CountStatistic, MoneyStatistic } from './figures-card.tsx';

/** "0.9512" -> "95.12%", "1.0000" -> "100%"; no orders today -> "—". */
export function formatSuccessRate(rate: string | null): string {
  if (rate === null) return '—';
  const percent = (Number(rate) * 100).toFixed(2).replace(/\.?0+$/, '');
  return `${percent}%`;
}

/** Each card's own list: today's paid collections, today's successful payouts. */
const KINDS = {
  collection: { title: 'todayCollection', path: '/collection/payments', status: 'paid' },
  payout: { title: 'todayPayout', path: '/behalfPay/transfers', status: 'success' },
} as const;

/**
 * Today's collection or payouts (the user's day): paid amount, paid count and success rate. The whole card
 * opens today's paid orders (successful payouts) in their list.
 */
export function TodayCard({
  kind,
  today,
  figures,
}: {
  kind: keyof typeof KINDS;
  today: string | undefined;
  figures: TodayCollection | undefined;
}) {
  const { t } = useTranslation('dashboard');
  const { title, path, status } = KINDS[kind];
  const card = (
    <Card
      hoverable={figures !== undefined}
      title={t(title)}
      extra={figures && <RightOutlined aria-hidden />}
      data-testid={`today-${kind}`}
    >
      {figures ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <MoneyStatistic
              title={t(`${kind}.paidAmount`)}
              amount={figures.paid_amount}
              currency={figures.currency}
            />
          </Col>
          <Col xs={12} sm={8}>
            <CountStatistic title={t(`${kind}.paidCount`)} count={figures.paid_count} />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t(`${kind}.successRate`)}
              value={figures.success_rate ?? ''}
              formatter={() => formatSuccessRate(figures.success_rate)}
            />
          </Col>
        </Row>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </Card>
  );
  if (!figures || !today) return card;
  // The list filters by creation time in the same zone as the card's day.
  const search = new URLSearchParams({ status, start_time: today, end_time: today });
  return (
    <CardLink to={`${path}?${search}`} label={t(`${kind}.open`)}>
      {card}
    </CardLink>
  );
}
