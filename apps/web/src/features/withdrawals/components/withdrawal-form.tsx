import { WalletOutlined } from '@ant-design/icons';
import { Alert, App, Form, type FormRule, Input, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { fromMinor, toMinor } from '@paydesk/shared/money.ts';
import { walletAddressIssue } from '@paydesk/shared/withdrawals/wallet-address.ts';
import { usdtToLocalMinor } from '@paydesk/shared/withdrawals/withdrawal-amount.ts';
import type { CreateWithdrawalBody, WalletNetwork } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import {
  AvailableItem,
  ConfirmSendModal,
  FigureItem,
  MONEY_FORM_LABEL_WIDTH,
  MONEY_FORM_LAYOUT,
  SendSummary,
  SubmitRow,
  useFormRefusal,
} from '../../../components/money-form.tsx';
import { currencyUnit, MoneyText } from '../../../components/money-text.tsx';
import { isTwoFactorRequired, StepUpFields } from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { LimitsItem, limitIssueOf, useLimitIssueText, useLimits } from '../../limits/index.ts';
import { useCreateWithdrawal } from '../api/create-withdrawal.ts';
import type { WithdrawalOptions } from '../api/get-withdrawal-options.ts';
import { formatUsdt } from './usdt.ts';

type FormValues = {
  currency: 'USDT';
  network: WalletNetwork;
  address?: string;
  amount?: string;
  payment_password: string;
  code: string;
};
type FieldName = keyof FormValues;

const USDT_AMOUNT = /^\d{1,15}(\.\d{1,6})?$/;
/** Refusals about the amount (or the balance it takes) show under the amount, the address's under it. */
const FIELD_OF_CODE: Partial<Record<string, FieldName>> = {
  [ERROR_CODES.insufficientFunds]: 'amount',
  [ERROR_CODES.amountOutOfRange]: 'amount',
  [ERROR_CODES.invalidWalletAddress]: 'address',
  [ERROR_CODES.limitExceeded]: 'amount',
  [ERROR_CODES.blocked]: 'address',
};

/** What this withdrawal costs now, in USDT and in the merchant's currency; undefined until the amount is one. */
export function withdrawalCostOf(amount: string | undefined, options: WithdrawalOptions) {
  const text = amount?.trim() ?? '';
  if (!USDT_AMOUNT.test(text)) return undefined;
  const amountMinor = toMinor(text, 'USDT');
  if (amountMinor === 0n) return undefined;
  const isFree = options.free_left_today > 0;
  const feeMinor = isFree ? 0n : toMinor(options.fee, 'USDT');
  const currency = options.local_currency;
  const localMinor =
    usdtToLocalMinor(amountMinor, options.rate, currency) +
    (feeMinor === 0n ? 0n : usdtToLocalMinor(feeMinor, options.rate, currency));
  return {
    isFree,
    fee: fromMinor(feeMinor, 'USDT'),
    localTotal: fromMinor(localMinor, currency),
    localMinor,
  };
}

/**
 * Withdraw: USDT to the merchant's wallet on TRC20 or ERC20. The address is checked as it is typed (TRON
 * base58check, EIP-55 when mixed case); the fee (free while the day's free withdrawals last) and what it
 * takes from the balance are shown before sending, then confirmed in a dialog that warns to check the
 * wallet and the network.
 */
export function WithdrawalForm({ options }: { options: WithdrawalOptions }) {
  const { t } = useTranslation('withdrawals');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateWithdrawal();
  const [review, setReview] = useState<CreateWithdrawalBody | null>(null);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const { refusal, clearRefusal, showRefusal } = useFormRefusal<FieldName>(form, FIELD_OF_CODE);
  // The limits an operator set (DESIGN 14), in USDT: shown before submit, and checked with the amount.
  const limits = useLimits('withdrawal').data;
  const limitIssueText = useLimitIssueText('withdrawal');

  const currency = options.local_currency;
  const amount = Form.useWatch('amount', form);
  const cost = withdrawalCostOf(amount, options);
  const exceedsAvailable = cost !== undefined && cost.localMinor > toMinor(options.available, currency);

  const addressRule: FormRule = ({ getFieldValue }) => ({
    validator: async (_, value?: string) => {
      const network = getFieldValue('network') as WalletNetwork;
      const issue = walletAddressIssue(network, value);
      if (issue === 'required') throw new Error(t('rules.address'));
      if (issue === 'format') throw new Error(t(`rules.addressFormat${network}`));
      if (issue === 'checksum') throw new Error(t('rules.addressChecksum'));
    },
  });
  const amountRule: FormRule = {
    validator: async (_, value?: string) => {
      const text = value?.trim() ?? '';
      if (!text) throw new Error(t('rules.amount'));
      if (!USDT_AMOUNT.test(text)) throw new Error(t('rules.amountFormat'));
      if (toMinor(text, 'USDT') < toMinor(options.min_amount, 'USDT'))
        throw new Error(t('rules.amountMin', { min: formatUsdt(options.min_amount) }));
      const limit = limitIssueOf(toMinor(text, 'USDT'), limits);
      if (limit) throw new Error(limitIssueText(limit, formatUsdt, 'USDT'));
    },
  };

  const send = async (body: CreateWithdrawalBody) => {
    clearRefusal();
    try {
      const withdrawal = await create.mutateAsync(body);
      setReview(null);
      message.success(t('form.sent', { no: withdrawal.withdrawal_no }));
      navigate(`/withdrawal/record?${new URLSearchParams({ withdrawal_no: withdrawal.withdrawal_no })}`);
    } catch (error) {
      setReview(null);
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      // Made, but its answer was not understood: the history shows it.
      if (error.kind === 'contract') return navigate('/withdrawal/record');
      showRefusal(error);
    }
  };

  const onFinish = (values: FormValues) =>
    setReview({
      currency: values.currency,
      network: values.network,
      address: values.address?.trim() ?? '',
      amount: values.amount?.trim() ?? '',
      payment_password: values.payment_password,
      code: values.code,
    });

  const reviewCost = review ? withdrawalCostOf(review.amount, options) : undefined;

  return (
    <>
      {needsTwoFactor && <TwoFactorRequired compact />}
      <Form<FormValues>
        form={form}
        name="withdrawal"
        aria-label={t('routes:withdrawalApply')}
        {...MONEY_FORM_LAYOUT}
        initialValues={{ currency: options.currencies[0], network: options.networks[0] }}
        onFinish={onFinish}
        onFinishFailed={() => message.warning(t('form.incomplete'))}
      >
        <Form.Item
          name="currency"
          label={t('form.currency')}
          rules={[{ required: true, message: t('rules.currency') }]}
        >
          <Select
            placeholder={t('form.currencyPlaceholder')}
            options={options.currencies.map((value) => ({ value, label: value }))}
          />
        </Form.Item>
        <Form.Item
          name="network"
          label={t('form.network')}
          rules={[{ required: true, message: t('rules.network') }]}
        >
          <Radio.Group
            optionType="button"
            onChange={() => {
              // The address is the network's: check it again against the new one (once typed).
              if (form.getFieldValue('address')) void form.validateFields(['address']);
            }}
            options={options.networks.map((value) => ({ value, label: t(`networks.${value}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="address"
          label={t('form.address')}
          required
          rules={[addressRule]}
          dependencies={['network']}
        >
          <Input
            placeholder={t('form.addressPlaceholder')}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
          />
        </Form.Item>
        <Form.Item name="amount" label={t('form.amount')} required rules={[amountRule]}>
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('form.amountPlaceholder')}
            suffix="USDT"
            maxLength={22}
          />
        </Form.Item>
        <Form.Item
          label={t('form.fee')}
          extra={
            <span data-testid="withdrawal-fee-text">
              {t('form.feeText', {
                fee: formatUsdt(options.fee),
                free: options.free_per_day,
                left: options.free_left_today,
              })}
            </span>
          }
        >
          <span data-testid="withdrawal-fee">
            {options.free_left_today > 0 ? t('form.free') : `${formatUsdt(options.fee)} USDT`}
          </span>
        </Form.Item>
        <FigureItem label={t('form.rate')} testId="withdrawal-rate">
          {t('form.rateText', { rate: options.rate, currency: currencyUnit(currency) })}
        </FigureItem>
        <FigureItem label={t('form.deducted')} testId="withdrawal-deducted" strong>
          <MoneyText value={cost?.localTotal} currency={currency} unit="code" />
        </FigureItem>
        <LimitsItem kind="withdrawal" limits={limits} format={formatUsdt} unit="USDT" />
        <AvailableItem
          label={t('form.available')}
          testId="withdrawal-available"
          available={options.available}
          currency={currency}
          exceeds={exceedsAvailable}
          exceedsText={t('form.exceedsAvailable')}
        />
        <StepUpFields />
        <Alert
          type="warning"
          showIcon
          title={t('form.warning')}
          data-testid="withdrawal-warning"
          style={{ marginLeft: MONEY_FORM_LABEL_WIDTH, marginBottom: 24 }}
        />
        <SubmitRow refusal={refusal} icon={<WalletOutlined />} loading={create.isPending}>
          {t('form.submit')}
        </SubmitRow>
      </Form>
      <ConfirmSendModal
        namespace="withdrawals"
        item={review}
        onSend={(item) => void send(item)}
        onClose={() => setReview(null)}
        loading={create.isPending}
        width={600}
      >
        {(review) => (
          <>
            <Alert type="warning" showIcon title={t('confirm.warning')} style={{ marginBottom: 16 }} />
            <SendSummary
              testId="withdrawal-summary"
              items={[
                { key: 'currency', label: t('form.currency'), children: review.currency },
                { key: 'network', label: t('form.network'), children: t(`networks.${review.network}`) },
                {
                  key: 'address',
                  label: t('form.address'),
                  children: <Typography.Text code>{review.address}</Typography.Text>,
                },
                { key: 'amount', label: t('form.amount'), children: `${formatUsdt(review.amount)} USDT` },
                {
                  key: 'fee',
                  label: t('form.feeNow'),
                  children: reviewCost?.isFree ? t('form.free') : `${formatUsdt(reviewCost?.fee)} USDT`,
                },
                {
                  key: 'deducted',
                  label: t('form.deducted'),
                  children: <MoneyText value={reviewCost?.localTotal} currency={currency} unit="code" />,
                },
              ]}
            />
          </>
        )}
      </ConfirmSendModal>
    </>
  );
}
