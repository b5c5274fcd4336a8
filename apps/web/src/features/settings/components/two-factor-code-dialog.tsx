import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOTP_CODE_PATTERN, type TwoFactorProofBody } from '@paydesk/shared/security/security.schemas.ts';
import { isHttpError } from '../../../lib/http.ts';

/** What the dialog sends: the authenticator's current code, or (where offered) a recovery code. */
export type TwoFactorProof = Pick<TwoFactorProofBody, 'code'> | Pick<TwoFactorProofBody, 'recovery_code'>;

type Values = { code?: string; recovery_code?: string };

/**
 * An action on a confirmed authenticator, after the password confirmation: the warning, then a 6-digit
 * code from the authenticator (or, where `recoveryHint` offers it, a recovery code, as the login's
 * challenge takes them). The password alone is not enough (DESIGN section 5). `onSubmit` sends the proof;
 * a refusal it throws (422, 429) shows under the field and the dialog stays; on success it closes.
 */
export function TwoFactorCodeDialog({
  open,
  name,
  title,
  okText,
  danger = false,
  warning,
  codeHint,
  recoveryHint,
  onSubmit,
  onClose,
}: {
  open: boolean;
  /** The form's name (its fields' ids start with it). */
  name: string;
  title: string;
  okText: string;
  danger?: boolean;
  warning?: string;
  codeHint: string;
  /** Given when the action takes a recovery code instead of the code: the hint shown with that field. */
  recoveryHint?: string;
  onSubmit: (proof: TwoFactorProof) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<Values>();
  const [usesRecoveryCode, setUsesRecoveryCode] = useState(false);
  const [isPending, setPending] = useState(false);
  const field = usesRecoveryCode ? 'recovery_code' : 'code';

  const close = () => {
    form.resetFields();
    setUsesRecoveryCode(false);
    onClose();
  };

  const submit = async (values: Values) => {
    const entered = (values[field] ?? '').trim();
    setPending(true);
    try {
      await onSubmit(usesRecoveryCode ? { recovery_code: entered } : { code: entered });
      close();
    } catch (error) {
      if (!isHttpError(error)) throw error;
      // The password prompt a lapsed confirmation opened was closed: the dialog stays as it was.
      if (error.kind === 'cancelled') return;
      form.setFields(error.formErrors(field));
    } finally {
      setPending(false);
    }
  };

  const toggle = () => {
    form.resetFields();
    setUsesRecoveryCode(!usesRecoveryCode);
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger }}
      cancelText={t('confirmPassword.cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={isPending}
      destroyOnHidden
      centered
    >
      {warning && <Typography.Paragraph type="warning">{warning}</Typography.Paragraph>}
      <Form<Values>
        form={form}
        name={name}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        aria-label={title}
      >
        <p>{usesRecoveryCode ? recoveryHint : codeHint}</p>
        {usesRecoveryCode ? (
          <Form.Item
            key="recovery_code"
            name="recovery_code"
            label={t('twoFactor.recoveryCode')}
            rules={[{ required: true, whitespace: true, message: t('validation.recoveryRequired') }]}
          >
            <Input autoComplete="off" spellCheck={false} autoFocus />
          </Form.Item>
        ) : (
          <Form.Item
            key="code"
            name="code"
            label={t('twoFactor.code')}
            normalize={(value: string) => value.replace(/\D/g, '')}
            rules={[
              { required: true, message: t('validation.codeRequired') },
              { pattern: TOTP_CODE_PATTERN, message: t('validation.codeLength') },
            ]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
          </Form.Item>
        )}
        {recoveryHint !== undefined && (
          <Button type="link" className="two-factor-code__toggle" onClick={toggle}>
            {usesRecoveryCode ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
          </Button>
        )}
      </Form>
    </Modal>
  );
}
