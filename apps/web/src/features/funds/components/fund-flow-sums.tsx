import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import type { FundFlowListResponse } from '@paydesk/shared/funds/funds.schemas.ts';
import { MoneyText } from '../../../components/money-text.tsx';

/** Money in, money out and the number of transactions of the whole filter, not just this page. */
export function FundFlowSums({
  meta,
  currency,
}: {
  meta: FundFlowListResponse['meta'] | undefined;
  currency: Currency;
}) {
  const { t } = useTranslation('funds');
  if (!meta) return null;
  const out = meta.sums.money_out;
  return (
    <Space size="large" wrap data-testid="fund-flow-sums" style={{ marginBottom: 12 }}>
      <span>
        <Typography.Text type="secondary">{t('sums.moneyIn')}: </Typography.Text>
        <MoneyText value={meta.sums.money_in} currency={currency} signed unit="code" />
      </span>
      <span>
        <Typography.Text type="secondary">{t('sums.moneyOut')}: </Typography.Text>
        <MoneyText value={out.startsWith('-') ? out : `-${out}`} currency={currency} signed unit="code" />
      </span>
      <span>
        <Typography.Text type="secondary">{t('sums.entries')}: </Typography.Text>
        <span>{meta.total.toLocaleString('en-US')}</span>
      </span>
    </Space>
  );
}
