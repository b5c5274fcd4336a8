import { RightOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TodayRefunds } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';

/**
 * Today's refunds of collections (the user's day; those that did not fail, DESIGN 14): amount and count,
 * a card under the collection card, laid out as it is. The whole card opens today's refunds in their list.
 */
export function TodayRefundsCard({ today, figures }: { today: string; figures: TodayRefunds }) {
  const { t } = useTranslation('dashboard');
  const search = new URLSearchParams({ start_time: today, end_time: today });
  return (
    <Link to={`/collection/refunds?${search}`} aria-label={t('refunds.open')} style={{ display: 'block' }}>
      <Card
        hoverable
        title={t('todayRefunds')}
        extra={<RightOutlined aria-hidden />}
        data-testid="today-refunds"
      >
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <Statistic
              title={t('refunds.amount')}
              value={figures.amount}
              formatter={() => formatMoney(figures.amount, figures.currency)}
              suffix={currencyUnit(figures.currency)}
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t('refunds.count')}
              value={figures.count}
              formatter={() => figures.count.toLocaleString('en-US')}
            />
          </Col>
        </Row>
      </Card>
    </Link>
  );
}
