import { RightOutlined } from '@ant-design/icons';
import { Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TodayCollection } from '@paydesk/shared/collections/collections.schemas.ts';
import { formatMoney } from '../../../components/money-text.tsx';

/** "0.9512" -> "95.12%", "1.0000" -> "100%"; no orders today -> "—". */
export function formatSuccessRate(rate: string | null): string {
  if (rate === null) return '—';
  const percent = (Number(rate) * 100).toFixed(2).replace(/\.?0+$/, '');
  return `${percent}%`;
}

/**
 * Today's collection (the user's day): paid amount, paid orders and success rate. The whole card opens
 * today's paid orders in Receive money > Transactions.
 */
export function TodayCollectionCard({
  today,
  collection,
}: {
  today: string | undefined;
  collection: TodayCollection | undefined;
}) {
  const { t } = useTranslation('dashboard');
  const card = (
    <Card
      hoverable={collection !== undefined}
      title={t('todayCollection')}
      extra={collection && <RightOutlined aria-hidden />}
      data-testid="today-collection"
    >
      {collection ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <Statistic
              title={t('collection.paidAmount')}
              value={collection.paid_amount}
              formatter={() => formatMoney(collection.paid_amount, collection.currency)}
              suffix={collection.currency}
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t('collection.paidCount')}
              value={collection.paid_count}
              formatter={() => collection.paid_count.toLocaleString('en-US')}
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t('collection.successRate')}
              value={collection.success_rate ?? ''}
              formatter={() => formatSuccessRate(collection.success_rate)}
            />
          </Col>
        </Row>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </Card>
  );
  if (!collection || !today) return card;
  // Paid orders created today: the list filters by creation time in the same zone as the card's day.
  const search = new URLSearchParams({ status: 'paid', start_time: today, end_time: today });
  return (
    <Link
      to={`/collection/payments?${search}`}
      aria-label={t('collection.open')}
      style={{ display: 'block' }}
    >
      {card}
    </Link>
  );
}
