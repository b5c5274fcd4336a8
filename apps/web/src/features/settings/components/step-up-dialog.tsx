import { Form, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import {
  isTwoFactorRequired,
  StepUpFields,
  stepUpFormErrors,
  type StepUpValues,
} from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';

/**
 * A dialog that asks for the payment password and a Google code before an action on the access key.
 * `onSubmit` sends them; a refusal shows under its field, and a user without two-factor is told so, with
 * the way to the Security page.
 */
export function StepUpDialog({
  open,
  title,
  okText,
  intro,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  intro?: ReactNode;
  onSubmit: (values: StepUpValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<StepUpValues>();
  const [isSending, setSending] = useState(false);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);

  const close = () => {
    // The factors are not kept for the next time the dialog opens (the form is there unless replaced).
    if (!needsTwoFactor) form.resetFields();
    setNeedsTwoFactor(false);
    onClose();
  };

  const submit = async (values: StepUpValues) => {
    setSending(true);
    try {
      await onSubmit(values);
      close();
    } catch (error) {
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      form.setFields(stepUpFormErrors(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={isSending}
      okButtonProps={{ hidden: needsTwoFactor }}
      destroyOnHidden
      centered
    >
      {needsTwoFactor ? (
        <TwoFactorRequired compact />
      ) : (
        <>
          {intro}
          <Form<StepUpValues>
            form={form}
            name="step-up"
            layout="vertical"
            requiredMark={false}
            onFinish={submit}
            aria-label={title}
          >
            <StepUpFields autoFocus />
          </Form>
        </>
      )}
    </Modal>
  );
}
