import { SendOutlined } from '@ant-design/icons';
import { Alert, App, Form, type FormRule, Input, Radio, Select } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Country } from '@paydesk/shared/collections/collections.schemas.ts';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { toMinor } from '@paydesk/shared/money.ts';
import {
  ACCOUNT_TYPES,
  type AccountType,
  type ConsolePayoutBody,
  ConsolePayoutBodySchema,
  type PayoutChannel,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import {
  AvailableItem,
  ConfirmSendModal,
  FigureItem,
  MONEY_FORM_LAYOUT,
  SubmitRow,
  useFormRefusal,
} from '../../../components/money-form.tsx';
import { currencyUnit, formatMoney, MoneyText } from '../../../components/money-text.tsx';
import { isTwoFactorRequired, StepUpFields } from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { LimitsItem, limitIssueOf, useLimitIssueText, useLimits } from '../../limits/index.ts';
import { isPossibleDuplicate, useCreatePayout } from '../api/create-payout.ts';
import type { PayoutChannels } from '../api/get-payout-channels.ts';
import {
  isPayeeFieldRequired,
  type PayeeField,
  payeeFieldsOf,
  payeeIssues,
  type PayeeIssue,
  type PayeeValues,
  taxIdOf,
} from '../payee-rules.ts';
import { type AmountIssue, amountIssueOf, amountMinorOf, payoutCostOf } from '../payout-amount.ts';
import { PayoutSummary } from './payout-summary.tsx';

type PayoutFormValues = {
  channel?: string;
  account_type: AccountType;
  payee_name?: string;
  account_no?: string;
  amount?: string;
  note?: string;
  payment_password: string;
  code: string;
} & Partial<Record<PayeeField, string>>;
type FieldName = keyof PayoutFormValues;

/** The bank details of one channel are not another's: they go when the channel changes. */
const BANK_FIELDS: PayeeField[] = ['bank_code', 'bank_name', 'branch_name', 'ifsc', 'cpf_cnpj'];
const MAX_LENGTHS: Record<PayeeField, number> = {
  bank_code: 32,
  bank_name: 100,
  branch_name: 100,
  ifsc: 11,
  cpf_cnpj: 18,
  payee_name: 100,
  account_no: 34,
};
/** Refusals about the amount (or the balance it takes) show under the amount, the channel's under it. */
const FIELD_OF_CODE: Partial<Record<string, FieldName>> = {
  [ERROR_CODES.insufficientFunds]: 'amount',
  [ERROR_CODES.amountOutOfRange]: 'amount',
  [ERROR_CODES.channelUnavailable]: 'channel',
  [ERROR_CODES.limitExceeded]: 'amount',
  [ERROR_CODES.blocked]: 'account_no',
};

/** The body of POST /api/merchant/payouts: the channel's country's bank fields only, trimmed. */
function payoutBodyOf(values: PayoutFormValues, channel: PayoutChannel): ConsolePayoutBody {
  const fields = payeeFieldsOf(channel.country);
  const pick = (field: PayeeField) =>
    fields.includes(field) ? values[field]?.trim() || undefined : undefined;
  return {
    channel: channel.code,
    account_type: values.account_type,
    bank_code: pick('bank_code'),
    bank_name: pick('bank_name'),
    branch_name: pick('branch_name'),
    ifsc: pick('ifsc'),
    cpf_cnpj: pick('cpf_cnpj'),
    payee_name: values.payee_name?.trim() ?? '',
    account_no: values.account_no?.trim() ?? '',
    amount: values.amount?.trim() ?? '',
    note: values.note?.trim() || undefined,
    payment_password: values.payment_password,
    code: values.code,
  };
}

/**
 * Send money: a bank payout through one of the merchant's open payout channels. The bank fields follow the
 * channel's country; the fee and the total are shown before sending, then confirmed in a dialog; a
 * near-duplicate of a recent payout is confirmed once more and sent again with confirm_duplicate.
 */
export function PayoutForm({ channels: answer }: { channels: PayoutChannels }) {
  const { t } = useTranslation('payouts');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<PayoutFormValues>();
  const create = useCreatePayout();
  const [review, setReview] = useState<{ body: ConsolePayoutBody; channel: PayoutChannel } | null>(null);
  const [duplicate, setDuplicate] = useState<{
    body: ConsolePayoutBody;
    channel: PayoutChannel;
    text: string;
  } | null>(null);
  const { refusal, clearRefusal, showRefusal } = useFormRefusal<FieldName>(form, FIELD_OF_CODE);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const autoBankName = useRef<string | undefined>(undefined);
  // The limits an operator set (DESIGN 14): shown before submit, and checked with the amount.
  const limits = useLimits('payout').data;
  const limitIssueText = useLimitIssueText('payout');

  const { channels, currency } = answer;
  const channelOf = (code: unknown) => channels.find((item) => item.code === code);
  const channel = channelOf(Form.useWatch('channel', form));
  const accountType = Form.useWatch('account_type', form);
  const amount = Form.useWatch('amount', form);
  const cost = channel ? payoutCostOf(amount, channel) : undefined;
  const exceedsAvailable = cost !== undefined && cost.totalMinor > toMinor(answer.available, currency);
  const fields = channel ? payeeFieldsOf(channel.country) : [];
  const shows = (field: PayeeField) => fields.includes(field);

  const issueText = (field: PayeeField, issue: PayeeIssue, values: PayeeValues, country: Country) => {
    switch (issue.rule) {
      case 'required':
        return t(`rules.${field === 'cpf_cnpj' ? taxIdOf(values.account_type) : field}`);
      case 'format':
        return field === 'ifsc' ? t('rules.ifsc_format') : t(`rules.account_format.${country}`);
      case 'unknown_bank':
        return field === 'ifsc'
          ? t('rules.ifsc_unknown_bank', { code: values.ifsc?.trim().slice(0, 4) })
          : t('rules.unknown_bank');
      case 'invalid_cpf':
        return t('rules.invalid_cpf');
      case 'invalid_cnpj':
        return t('rules.invalid_cnpj');
    }
  };

  // The checks read the form's own values (not this render's), so they hold while the channel changes.
  const payeeRule =
    (field: PayeeField): FormRule =>
    ({ getFieldValue, getFieldsValue }) => ({
      validator: async (_, value?: string) => {
        const current = channelOf(getFieldValue('channel'));
        if (!current) return;
        const values = { ...getFieldsValue(), [field]: value };
        const issue = payeeIssues(current.country, values)[field];
        if (issue) throw new Error(issueText(field, issue, values, current.country));
      },
    });

  const amountText = (issue: AmountIssue, of: PayoutChannel) => {
    const money = (value: string) => formatMoney(value, of.currency);
    const range = {
      min: money(of.min_amount),
      max: money(of.max_amount),
      currency: currencyUnit(of.currency),
    };
    const texts: Record<AmountIssue, string> = {
      required: t('rules.amount'),
      format: t('rules.amountFormat', { currency: currencyUnit(of.currency) }),
      zero: t('rules.amountZero'),
      range: t('rules.amountRange', range),
    };
    return texts[issue];
  };
  const amountRule: FormRule = ({ getFieldValue }) => ({
    validator: async (_, value?: string) => {
      const current = channelOf(getFieldValue('channel'));
      const issue = current ? amountIssueOf(value, current) : value?.trim() ? undefined : 'required';
      if (issue) throw new Error(current ? amountText(issue, current) : t('rules.amount'));
      const minor = current && amountMinorOf(value, current.currency);
      const limit = minor ? limitIssueOf(minor, limits) : undefined;
      if (current && limit) {
        const money = (v: string) => formatMoney(v, current.currency);
        throw new Error(limitIssueText(limit, money, currencyUnit(current.currency)));
      }
    },
  });

  const onChannelChange = () => {
    form.resetFields(BANK_FIELDS);
    autoBankName.current = undefined;
  };

  // China: choosing the bank fills its name, unless a name of the user's own is there.
  const onBankChange = (code: string) => {
    if (!channel || !shows('bank_name')) return;
    const name = channel.banks.find((bank) => bank.code === code)?.name;
    const typed = form.getFieldValue('bank_name') as string | undefined;
    if (!typed || typed === autoBankName.current) form.setFieldValue('bank_name', name);
    autoBankName.current = name;
  };

  const send = async (body: ConsolePayoutBody, sentChannel: PayoutChannel) => {
    clearRefusal();
    try {
      const payout = await create.mutateAsync(body);
      setReview(null);
      setDuplicate(null);
      // At or above the approval threshold (DESIGN 16) it waits, held, for another user's approval.
      if (payout.status === 'pending_approval')
        message.info(t('form.pendingApproval', { tradeNo: payout.trade_no }));
      else message.success(t('form.sent', { tradeNo: payout.trade_no }));
      navigate(`/behalfPay/transfers?${new URLSearchParams({ trade_no: payout.trade_no })}`);
    } catch (error) {
      setReview(null);
      setDuplicate(null);
      if (isPossibleDuplicate(error) && !body.confirm_duplicate) {
        setDuplicate({
          body: { ...body, confirm_duplicate: true },
          channel: sentChannel,
          text: error.message,
        });
        return;
      }
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      // Created, but its answer was not understood (the client said so): the history shows it.
      if (error.kind === 'contract') return navigate('/behalfPay/transfers');
      showRefusal(error);
    }
  };

  const onFinish = (values: PayoutFormValues) => {
    const chosen = channelOf(values.channel);
    if (chosen) setReview({ body: payoutBodyOf(values, chosen), channel: chosen });
  };

  const taxId = taxIdOf(accountType);
  const payeeItem = (
    field: PayeeField,
    label: string,
    placeholder: string,
    normalize?: (v: string) => string,
  ) => (
    <Form.Item
      key={field}
      name={field}
      label={label}
      required={isPayeeFieldRequired(field)}
      rules={[payeeRule(field)]}
      normalize={normalize}
      dependencies={field === 'cpf_cnpj' ? ['account_type'] : undefined}
    >
      <Input placeholder={placeholder} maxLength={MAX_LENGTHS[field]} />
    </Form.Item>
  );

  return (
    <>
      {needsTwoFactor && <TwoFactorRequired compact />}
      <Form<PayoutFormValues>
        form={form}
        name="payout"
        aria-label={t('routes:transfersApply')}
        {...MONEY_FORM_LAYOUT}
        initialValues={{
          account_type: 'individual',
          channel: channels.length === 1 ? channels[0].code : undefined,
        }}
        onFinish={onFinish}
        onFinishFailed={() => message.warning(t('form.incomplete'))}
      >
        <Form.Item
          name="channel"
          label={t('form.channel')}
          required
          rules={[zodRule(ConsolePayoutBodySchema.shape.channel, () => t('rules.channel'))]}
          extra={
            channel &&
            t('form.channelTerms', {
              rate: channel.fee_rate,
              fixed: formatMoney(channel.fixed_fee, channel.currency),
              min: formatMoney(channel.min_amount, channel.currency),
              max: formatMoney(channel.max_amount, channel.currency),
              currency: currencyUnit(channel.currency),
            })
          }
        >
          <Select
            placeholder={t('form.channelPlaceholder')}
            onChange={onChannelChange}
            options={channels.map((item) => ({
              value: item.code,
              label: t('form.channelOption', { code: item.code, country: t(`countries.${item.country}`) }),
            }))}
          />
        </Form.Item>
        {channel && (
          <>
            <Form.Item name="account_type" label={t('form.accountType')} required>
              <Radio.Group
                options={ACCOUNT_TYPES.map((value) => ({ value, label: t(`accountTypes.${value}`) }))}
              />
            </Form.Item>
            {shows('bank_code') && (
              <Form.Item name="bank_code" label={t('form.bank')} required rules={[payeeRule('bank_code')]}>
                <Select
                  placeholder={t('form.bankPlaceholder')}
                  showSearch={{ optionFilterProp: 'label' }}
                  onChange={onBankChange}
                  options={channel.banks.map((bank) => ({ value: bank.code, label: bank.name }))}
                />
              </Form.Item>
            )}
            {shows('bank_name') && payeeItem('bank_name', t('form.bankName'), t('form.bankNamePlaceholder'))}
            {shows('branch_name') &&
              payeeItem('branch_name', t('form.branchName'), t('form.branchNamePlaceholder'))}
            {shows('ifsc') &&
              payeeItem('ifsc', t('form.ifsc'), t('form.ifscPlaceholder'), (value) => value.toUpperCase())}
            {shows('cpf_cnpj') && payeeItem('cpf_cnpj', t(`form.${taxId}`), t(`form.${taxId}Placeholder`))}
            {payeeItem('payee_name', t('form.payee'), t('form.payeePlaceholder'))}
            {payeeItem('account_no', t('form.account'), t('form.accountPlaceholder'))}
            <Form.Item
              name="amount"
              label={t('form.amount')}
              required
              rules={[amountRule]}
              dependencies={['channel']}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                placeholder={t('form.amountPlaceholder')}
                suffix={channel.currency}
                maxLength={22}
              />
            </Form.Item>
            <FigureItem label={t('form.fee')} testId="payout-fee">
              <MoneyText value={cost?.fee} currency={currency} unit="code" />
            </FigureItem>
            <FigureItem label={t('form.total')} testId="payout-total" strong>
              <MoneyText value={cost?.total} currency={currency} unit="code" />
            </FigureItem>
            <LimitsItem
              kind="payout"
              limits={limits}
              format={(v) => formatMoney(v, currency)}
              unit={currencyUnit(currency)}
            />
            <AvailableItem
              label={t('form.available')}
              testId="payout-available"
              available={answer.available}
              currency={currency}
              exceeds={exceedsAvailable}
              exceedsText={t('form.exceedsAvailable')}
            />
            <Form.Item name="note" label={t('form.note')}>
              <Input.TextArea rows={2} maxLength={255} showCount placeholder={t('form.notePlaceholder')} />
            </Form.Item>
            <StepUpFields />
          </>
        )}
        <SubmitRow refusal={refusal} icon={<SendOutlined />} loading={create.isPending}>
          {t('form.submit')}
        </SubmitRow>
      </Form>
      <ConfirmSendModal
        namespace="payouts"
        item={review}
        onSend={(item) => void send(item.body, item.channel)}
        onClose={() => setReview(null)}
        loading={create.isPending}
      >
        {(item) => <PayoutSummary body={item.body} channel={item.channel} />}
      </ConfirmSendModal>
      <ConfirmSendModal
        namespace="payouts"
        item={duplicate}
        title={t('duplicate.title')}
        okText={t('duplicate.ok')}
        onSend={(item) => void send(item.body, item.channel)}
        onClose={() => setDuplicate(null)}
        loading={create.isPending}
      >
        {(item) => (
          <>
            <Alert type="warning" showIcon title={item.text} style={{ marginBottom: 16 }} />
            <PayoutSummary body={item.body} channel={item.channel} />
          </>
        )}
      </ConfirmSendModal>
    </>
  );
}
