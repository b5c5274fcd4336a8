import { Alert, Descriptions, type DescriptionsProps, Drawer, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Withdrawal } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { currencyUnit, MoneyText } from '../../../components/money-text.tsx';
import { formatUsdt } from './usdt.ts';
import { WithdrawalStatusTag } from './withdrawal-status-tag.tsx';

function fieldsOf(w: Withdrawal, t: TFunction<'withdrawal'>): DescriptionsProps['items'] {
  const currency = w.local_currency;
  const when = (key: string, label: string, value: string | null) =>
    value === null ? [] : [{ key, label, children: <DateTime value={value} /> }];
  return [
    {
      key: 'no',
      label: t('columns.withdrawalNo'),
      children: <Typography.Text copyable>{w.withdrawal_no}</Typography.Text>,
    },
    { key: 'status', label: t('columns.status'), children: <WithdrawalStatusTag status={w.status} /> },
    { key: 'currency', label: t('detail.currency'), children: w.currency },
    { key: 'network', label: t('columns.network'), children: t(`networks.${w.network}`) },
    {
      key: 'address',
      label: t('columns.address'),
      children: <Typography.Text copyable>{w.address}</Typography.Text>,
    },
    { key: 'amount', label: t('columns.amount'), children: `${formatUsdt(w.amount)} USDT` },
    {
      key: 'fee',
      label: t('columns.fee'),
      children: w.is_free ? t('detail.free') : `${formatUsdt(w.fee)} USDT`,
    },
    {
      key: 'rate',
      label: t('detail.rate'),
      children: t('form.rateText', { rate: w.rate, currency: currencyUnit(currency) }),
    },
    {
      key: 'localAmount',
      label: t('detail.localAmount', { currency: currencyUnit(currency) }),
      children: <MoneyText value={w.local_amount} currency={currency} />,
    },
    {
      key: 'localFee',
      label: t('detail.localFee', { currency: currencyUnit(currency) }),
      children: <MoneyText value={w.local_fee} currency={currency} />,
    },
    {
      key: 'localTotal',
      label: t('detail.localTotal', { currency: currencyUnit(currency) }),
      children: <MoneyText value={w.local_total} currency={currency} />,
    },
    ...(w.tx_hash
      ? [
          {
            key: 'txHash',
            label: t('columns.txHash'),
            children: (
              <Typography.Text copyable code data-testid="withdrawal-tx-hash">
                {w.tx_hash}
              </Typography.Text>
            ),
          },
        ]
      : []),
    { key: 'createdAt', label: t('columns.createdAt'), children: <DateTime value={w.created_at} /> },
    ...when('approvedAt', t('detail.approvedAt'), w.approved_at),
    ...when('paidAt', t('detail.paidAt'), w.paid_at),
    ...when('rejectedAt', t('detail.rejectedAt'), w.rejected_at),
  ];
}

/** One withdrawal from the list: where it went, what it cost, the transaction once paid, why if rejected. */
export function WithdrawalDetailDrawer({
  withdrawal,
  onClose,
}: {
  withdrawal: Withdrawal | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('withdrawal');
  return (
    <Drawer
      open={withdrawal !== undefined}
      onClose={onClose}
      title={t('detail.title', { no: withdrawal?.withdrawal_no ?? '' })}
      size="large"
    >
      {withdrawal && (
        <>
          {withdrawal.reject_reason && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('detail.rejectReason')}
              description={withdrawal.reject_reason}
              data-testid="withdrawal-reject-reason"
            />
          )}
          <Descriptions column={1} bordered size="small" items={fieldsOf(withdrawal, t)} />
        </>
      )}
    </Drawer>
  );
}
