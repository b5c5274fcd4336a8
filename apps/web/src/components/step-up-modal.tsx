import { Alert, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { isHttpError } from '../lib/http.ts';
import { useFormRefusal } from './money-form.tsx';
import { isTwoFactorRequired, StepUpFields, type StepUpValues } from './step-up-fields.tsx';
import { TwoFactorRequired } from './two-factor-required.tsx';

/**
 * A dialog whose form moves money (a payout's approval, a refund): the form's own items (`children`), then
 * the payment password and Google code, then a refusal that belongs to no field (`fieldOfCode` maps a
 * refusal's code to its field or to such a name) above the buttons. When the server answers that
 * two-factor is not enabled yet, the dialog shows the way to Security in place of the form.
 * `submit` sends the values; when it resolves, the caller has said so and closed the dialog.
 */
export function StepUpModal<Values extends StepUpValues, Name extends string>({
  form,
  name,
  title,
  okText,
  cancelText,
  onClose,
  submit,
  isPending,
  fieldOfCode,
  initialValues,
  autoFocus = false,
  children,
}: {
  form: FormInstance<Values>;
  name: string;
  title: string;
  okText: string;
  cancelText: string;
  onClose: () => void;
  submit: (values: Values) => Promise<void>;
  isPending: boolean;
  fieldOfCode: Partial<Record<string, Name>>;
  initialValues?: Partial<Values>;
  /** The payment password takes the focus (when the form has no field of its own before it). */
  autoFocus?: boolean;
  children?: ReactNode;
}) {
  const { refusal, clearRefusal, showRefusal } = useFormRefusal<Name>(form, fieldOfCode);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const onFinish = async (values: Values) => {
    clearRefusal();
    try {
      await submit(values);
    } catch (error) {
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      showRefusal(error);
    }
  };
  return (
    <Modal
      open
      title={title}
      okText={okText}
      cancelText={cancelText}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={isPending}
      okButtonProps={{ hidden: needsTwoFactor }}
      mask={{ closable: false }}
      destroyOnHidden
      centered
    >
      {needsTwoFactor ? (
        <TwoFactorRequired compact />
      ) : (
        <Form<Values>
          form={form}
          name={name}
          layout="vertical"
          aria-label={title}
          initialValues={initialValues}
          onFinish={(values) => void onFinish(values)}
        >
          {children}
          <StepUpFields autoFocus={autoFocus} />
          {refusal && <Alert type="error" showIcon title={refusal} role="alert" />}
        </Form>
      )}
    </Modal>
  );
}
