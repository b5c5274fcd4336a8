import { AuditOutlined, RightOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TodayRefunds } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';

/**
 * Payouts waiting for approval (DESIGN 16), whatever day they were made: how many and their amount, under
 * the payout card. The whole card opens them in Send money history.
 */
export function PayoutApprovalCard({ figures }: { figures: TodayRefunds }) {
  const { t } = useTranslation('dashboard');
  return (
    <Link
      to="/behalfPay/transfers?status=pending_approval"
      aria-label={t('approval.open')}
      style={{ display: 'block' }}
    >
      <Card
        hoverable
        title={
          <span>
            <AuditOutlined aria-hidden style={{ marginRight: 8 }} />
            {t('approval.title')}
          </span>
        }
        extra={<RightOutlined aria-hidden />}
        data-testid="payout-approval"
      >
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <Statistic
              title={t('approval.amount')}
              value={figures.amount}
              formatter={() => formatMoney(figures.amount, figures.currency)}
              suffix={currencyUnit(figures.currency)}
            />
          </Col>
          <Col xs={12} sm={8}>
            <Statistic
              title={t('approval.count')}
              value={figures.count}
              formatter={() => figures.count.toLocaleString('en-US')}
            />
          </Col>
        </Row>
      </Card>
    </Link>
  );
}
