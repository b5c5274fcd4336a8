import {
  Alert,
  Button,
  Descriptions,
  type DescriptionsProps,
  Form,
  type FormInstance,
  type FormProps,
  Modal,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import type { HttpError } from '../lib/http.ts';
import { MoneyText } from './money-text.tsx';
import { stepUpFormErrors } from './step-up-fields.tsx';

// What the money-moving forms (Send money, Withdraw; Top up its layout) share: the layout, the figures shown before sending,
// the available balance with its warning, and where a refusal of the server is shown.

/** The labels' column: the forms' alerts and buttons line up with the fields after it. */
export const MONEY_FORM_LABEL_WIDTH = 168;

/** A money-moving form's layout: labels on the left in one column, fields after them, 720 px at most. */
export const MONEY_FORM_LAYOUT = {
  layout: 'horizontal',
  labelAlign: 'left',
  labelWrap: true,
  colon: false,
  labelCol: { flex: `${MONEY_FORM_LABEL_WIDTH}px` },
  wrapperCol: { flex: 1 },
  style: { maxWidth: 720 },
  scrollToFirstError: true,
} as const satisfies FormProps;

/** A figure the form computes (a fee, a total), read-only, found by tests and screen readers by its label. */
export function FigureItem({
  label,
  testId,
  strong = false,
  children,
}: {
  label: string;
  testId: string;
  strong?: boolean;
  children: ReactNode;
}) {
  return (
    <Form.Item label={label}>
      <span data-testid={testId}>
        {strong ? <Typography.Text strong>{children}</Typography.Text> : children}
      </span>
    </Form.Item>
  );
}

/** What is about to be sent, as a confirm dialog shows it: a row a figure, labels in one column. */
export function SendSummary({ testId, items }: { testId: string; items: DescriptionsProps['items'] }) {
  return (
    <Descriptions
      column={1}
      bordered
      size="small"
      data-testid={testId}
      styles={{ label: { width: 160 } }}
      items={items}
    />
  );
}

/** The balance the money comes from, with a warning when what is typed takes more. */
export function AvailableItem({
  label,
  testId,
  available,
  currency,
  exceeds,
  exceedsText,
}: {
  label: string;
  testId: string;
  available: string;
  currency: Currency;
  exceeds: boolean;
  exceedsText: string;
}) {
  return (
    <Form.Item label={label}>
      <span data-testid={testId}>
        <MoneyText value={available} currency={currency} unit="code" />
      </span>
      {/* A warning only: the server has the last word on the balance (422 insufficient_funds). */}
      {exceeds && (
        <Typography.Text type="warning" style={{ marginLeft: 12 }}>
          {exceedsText}
        </Typography.Text>
      )}
    </Form.Item>
  );
}

/**
 * Where a form shows the server's refusal: under the field its code belongs to (`fieldOfCode`), else under
 * the fields the server names or the two factors (stepUpFormErrors); a field this form does not show, in
 * words above the button (`refusal`), never lost.
 */
export function useFormRefusal<Name extends string>(
  form: FormInstance,
  fieldOfCode: Partial<Record<string, Name>>,
) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const showRefusal = (error: HttpError) => {
    const field = error.code ? fieldOfCode[error.code] : undefined;
    const errors = field ? error.formErrors<Name>(field) : stepUpFormErrors<Name>(error);
    // The fields on screen now (getFieldsValue() without arguments reads only those).
    const mounted = new Set<string>(Object.keys(form.getFieldsValue() as object));
    const onForm = errors.filter((item) => mounted.has(item.name));
    const elsewhere = errors.filter((item) => !mounted.has(item.name)).flatMap((item) => item.errors);
    form.setFields(onForm);
    setRefusal(elsewhere.length > 0 ? elsewhere.join(' ') : null);
    if (onForm[0]) form.scrollToField(onForm[0].name);
  };
  return { refusal, clearRefusal: () => setRefusal(null), showRefusal };
}

/** The form's last row: a refusal that belongs to no field, then the submit button under the fields. */
export function SubmitRow({
  refusal,
  icon,
  loading,
  children,
}: {
  refusal: string | null;
  icon: ReactNode;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} role="alert" />}
      <Form.Item label=" ">
        <Button type="primary" htmlType="submit" icon={icon} loading={loading}>
          {children}
        </Button>
      </Form.Item>
    </>
  );
}

/**
 * The last look before money moves: `children` shows the `item` about to be sent (open while it is not
 * null), confirmed with `<namespace>:confirm.ok` (or `okText`). Closing it sends nothing; a click beside it
 * does not close it, so no order is lost to a stray click.
 */
export function ConfirmSendModal<Item>({
  namespace,
  item,
  onSend,
  onClose,
  loading,
  title,
  okText,
  width = 560,
  children,
}: {
  namespace: string;
  item: Item | null;
  onSend: (item: Item) => void;
  onClose: () => void;
  loading: boolean;
  title?: ReactNode;
  okText?: ReactNode;
  width?: number;
  children: (item: Item) => ReactNode;
}) {
  const { t } = useTranslation(namespace);
  return (
    <Modal
      open={item !== null}
      title={title ?? t('confirm.title')}
      okText={okText ?? t('confirm.ok')}
      cancelText={t('cancel')}
      onOk={() => item !== null && onSend(item)}
      onCancel={onClose}
      confirmLoading={loading}
      mask={{ closable: false }}
      destroyOnHidden
      centered
      width={width}
    >
      {item !== null && children(item)}
    </Modal>
  );
}
