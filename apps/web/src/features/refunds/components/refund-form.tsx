import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import type { Currency } from '@paydesk/shared/money.ts';
import { type ConsoleRefundBody, ConsoleRefundBodySchema } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';
import { StepUpModal } from '../../../components/step-up-modal.tsx';
import { trimmed, zodRule } from '../../../lib/zod-rule.ts';
import { useCreateRefund } from '../api/create-refund.ts';
import { type RefundAmountIssue, refundAmountIssueOf } from '../refund-amount.ts';

type RefundFormValues = {
  amount: string;
  reason?: string;
  out_refund_no?: string;
  payment_password: string;
  code: string;
};
type FieldName = keyof RefundFormValues;

/**
 * Refusals about the amount (or the balance it takes) show under the amount, a taken refund number under
 * it; an order no longer refundable (409 invalid_state) above the buttons, as no field is wrong.
 */
const FIELD_OF_CODE: Partial<Record<string, FieldName | 'order'>> = {
  [ERROR_CODES.refundExceedsAmount]: 'amount',
  [ERROR_CODES.insufficientFunds]: 'amount',
  [ERROR_CODES.outRefundNoTaken]: 'out_refund_no',
  [ERROR_CODES.invalidState]: 'order',
};

export type RefundableOrder = { trade_no: string; currency: Currency };

/**
 * The Refund action's form (DESIGN 14), in a dialog over the order's drawer: the amount (prefilled with
 * what is refundable, never more), a reason, the merchant's own refund number (the console numbers it
 * when left empty), then the payment password and Google code. On success a message names the new refund.
 */
export function RefundForm({
  order,
  refundable,
  onClose,
}: {
  order: RefundableOrder;
  refundable: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('refunds');
  const { message } = App.useApp();
  const [form] = Form.useForm<RefundFormValues>();
  const create = useCreateRefund(order.trade_no);
  const { currency } = order;
  const unit = currencyUnit(currency);

  const amountText = (issue: RefundAmountIssue) =>
    ({
      required: t('form.rules.amount'),
      format: t('form.rules.amountFormat', { currency: unit }),
      zero: t('form.rules.amountZero'),
      exceeds: t('form.rules.amountExceeds', {
        refundable: formatMoney(refundable, currency),
        currency: unit,
      }),
    })[issue];

  return (
    <StepUpModal
      form={form}
      name="refund"
      title={t('form.title', { tradeNo: order.trade_no })}
      okText={t('form.submit')}
      cancelText={t('form.cancel')}
      onClose={onClose}
      isPending={create.isPending}
      fieldOfCode={FIELD_OF_CODE}
      initialValues={{ amount: refundable }}
      submit={async (values) => {
        const body: ConsoleRefundBody = {
          amount: values.amount.trim(),
          reason: values.reason?.trim() || undefined,
          out_refund_no: values.out_refund_no?.trim() || undefined,
          payment_password: values.payment_password,
          code: values.code,
        };
        const refund = await create.mutateAsync(body);
        message.success(t('form.created', { refundNo: refund.refund_no }));
        onClose();
      }}
    >
      <Form.Item
        name="amount"
        label={t('form.amount')}
        required
        extra={t('form.amountHelp', { refundable: formatMoney(refundable, currency), currency: unit })}
        rules={[
          {
            validator: async (_, value?: string) => {
              const issue = refundAmountIssueOf(value, refundable, currency);
              if (issue) throw new Error(amountText(issue));
            },
          },
        ]}
      >
        <Input inputMode="decimal" autoComplete="off" suffix={currency} maxLength={22} />
      </Form.Item>
      <Form.Item
        name="reason"
        label={t('form.reason')}
        rules={[zodRule(ConsoleRefundBodySchema.shape.reason, () => t('form.rules.reason'), trimmed)]}
      >
        <Input.TextArea rows={2} maxLength={255} showCount placeholder={t('form.reasonPlaceholder')} />
      </Form.Item>
      <Form.Item
        name="out_refund_no"
        label={t('form.outRefundNo')}
        extra={t('form.outRefundNoHelp')}
        rules={[
          zodRule(ConsoleRefundBodySchema.shape.out_refund_no, () => t('form.rules.outRefundNo'), trimmed),
        ]}
      >
        <Input autoComplete="off" maxLength={64} />
      </Form.Item>
    </StepUpModal>
  );
}
