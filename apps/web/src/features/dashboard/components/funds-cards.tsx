import { Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';
import { Link } from 'react-router';
import { useBalance } from '../../funds/index.ts';
import { DASHBOARD_REFRESH_MS } from '../api/get-dashboard.ts';

/** Total, available and locked funds (GET /api/merchant/balance), for users who may see the funds. */
export function FundsCards() {
  const { t } = useTranslation(['dashboard', 'funds']);
  const canView = useHasPerm('funds:view');
  const { data: balance } = useBalance({ enabled: canView, refetchInterval: DASHBOARD_REFRESH_MS });
  if (!canView) return null;
  const figures = [
    { key: 'total', title: t('funds:cards.total'), value: balance?.total },
    { key: 'available', title: t('funds:cards.available'), value: balance?.available },
    {
      key: 'locked',
      title: t('funds:cards.locked'),
      value: balance?.locked,
      hint: t('funds:cards.lockedHint'),
    },
  ];
  return (
    <Card
      title={t('dashboard:funds.title')}
      data-testid="funds-cards"
      // The movements that explain the balance.
      extra={<Link to="/fund/fundWater">{t('dashboard:charts.fundsOpen')}</Link>}
    >
      <Row gutter={[16, 16]}>
        {figures.map((figure) => (
          <Col xs={24} md={8} key={figure.key}>
            {balance ? (
              <Statistic
                data-testid={`funds-${figure.key}`}
                title={<span title={figure.hint}>{figure.title}</span>}
                value={figure.value}
                formatter={() => formatMoney(figure.value ?? '0', balance.currency as Currency)}
                suffix={currencyUnit(balance.currency)}
              />
            ) : (
              <Skeleton active paragraph={{ rows: 1 }} />
            )}
          </Col>
        ))}
      </Row>
    </Card>
  );
}
