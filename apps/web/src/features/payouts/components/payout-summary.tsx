import { useTranslation } from 'react-i18next';
import type { ConsolePayoutBody, PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { SendSummary } from '../../../components/money-form.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { maskAccount } from '../payee-rules.ts';
import { payoutCostOf } from '../payout-amount.ts';

/**
 * What is about to be paid, as the confirm dialogs show it: the payee, their bank and account (masked, as
 * everywhere after the form), the amount, the fee and the total taken from the balance.
 */
export function PayoutSummary({ body, channel }: { body: ConsolePayoutBody; channel: PayoutChannel }) {
  const { t } = useTranslation('payouts');
  const { currency } = channel;
  const cost = payoutCostOf(body.amount, channel);
  const bank = channel.banks.find((item) => item.code === body.bank_code)?.name ?? body.bank_code;
  return (
    <SendSummary
      testId="payout-summary"
      items={[
        { key: 'channel', label: t('form.channel'), children: body.channel },
        { key: 'payee', label: t('form.payee'), children: body.payee_name },
        ...(bank ? [{ key: 'bank', label: t('form.bank'), children: bank }] : []),
        ...(body.ifsc ? [{ key: 'ifsc', label: t('form.ifsc'), children: body.ifsc }] : []),
        { key: 'account', label: t('form.account'), children: maskAccount(body.account_no) },
        {
          key: 'amount',
          label: t('form.amount'),
          children: <MoneyText value={body.amount} currency={currency} unit="code" />,
        },
        {
          key: 'fee',
          label: t('form.fee'),
          children: <MoneyText value={cost?.fee} currency={currency} unit="code" />,
        },
        {
          key: 'total',
          label: t('form.total'),
          children: <MoneyText value={cost?.total} currency={currency} unit="code" />,
        },
      ]}
    />
  );
}
