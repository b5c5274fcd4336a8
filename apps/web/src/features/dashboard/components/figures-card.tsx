import { RightOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Currency } from '@paydesk/shared/money.ts';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';

/** An amount in its currency, the unit after it (the spec's Yuan for CNY in the user's language). */
export const MoneyStatistic = ({
  title,
  amount,
  currency,
}: {
  title: string;
  amount: string;
  currency: Currency;
}) => (
  <Statistic
    title={title}
    value={amount}
    formatter={() => formatMoney(amount, currency)}
    suffix={currencyUnit(currency)}
  />
);

/** A count with its thousands separated. */
export const CountStatistic = ({ title, count }: { title: string; count: number }) => (
  <Statistic title={title} value={count} formatter={() => count.toLocaleString('en-US')} />
);

/** A card the user opens as a whole: the list that explains its figures. */
export const CardLink = ({ to, label, children }: { to: string; label: string; children: ReactNode }) => (
  <Link to={to} aria-label={label} style={{ display: 'block' }}>
    {children}
  </Link>
);

/** A card of an amount and a count (today's refunds, the payouts waiting for approval) opening `to`. */
export function AmountCountCard({
  to,
  label,
  title,
  testId,
  amountTitle,
  countTitle,
  figures,
}: {
  to: string;
  label: string;
  title: ReactNode;
  testId: string;
  amountTitle: string;
  countTitle: string;
  figures: { amount: string; count: number; currency: Currency };
}) {
  return (
    <CardLink to={to} label={label}>
      <Card hoverable title={title} extra={<RightOutlined aria-hidden />} data-testid={testId}>
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <MoneyStatistic title={amountTitle} amount={figures.amount} currency={figures.currency} />
          </Col>
          <Col xs={12} sm={8}>
            <CountStatistic title={countTitle} count={figures.count} />
          </Col>
        </Row>
      </Card>
    </CardLink>
  );
}
