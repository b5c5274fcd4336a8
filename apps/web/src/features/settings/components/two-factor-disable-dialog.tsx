import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOTP_CODE_PATTERN } from '@paydesk/shared/security/security.schemas.ts';
import { isHttpError } from '../../../lib/http.ts';
import { useDisableTwoFactor } from '../api/disable-two-factor.ts';

type Values = { code?: string; recovery_code?: string };

/**
 * Turning two-factor off, after the password confirmation: the warning, then a 6-digit code from the
 * authenticator (or, with the phone lost, a recovery code), as the login's challenge asks for them. The
 * password alone is not enough (DESIGN section 5); a refusal shows under the field.
 */
export function TwoFactorDisableDialog({
  open,
  onClose,
}: {
  open: boolean;
  onClose: (isDisabled: boolean) => void;
}) {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<Values>();
  const [usesRecoveryCode, setUsesRecoveryCode] = useState(false);
  const disable = useDisableTwoFactor();
  const field = usesRecoveryCode ? 'recovery_code' : 'code';

  const close = (isDisabled: boolean) => {
    form.resetFields();
    setUsesRecoveryCode(false);
    onClose(isDisabled);
  };

  const submit = async (values: Values) => {
    const entered = (values[field] ?? '').trim();
    try {
      await disable.mutateAsync(usesRecoveryCode ? { recovery_code: entered } : { code: entered });
      close(true);
    } catch (error) {
      if (!isHttpError(error)) throw error;
      // The password prompt a lapsed confirmation opened was closed: the dialog stays as it was.
      if (error.kind === 'cancelled') return;
      form.setFields(error.formErrors(field));
    }
  };

  const toggle = () => {
    form.resetFields();
    setUsesRecoveryCode(!usesRecoveryCode);
  };

  return (
    <Modal
      open={open}
      title={t('twoFactor.disableTitle')}
      okText={t('twoFactor.disableOk')}
      okButtonProps={{ danger: true }}
      cancelText={t('confirmPassword.cancel')}
      onOk={() => form.submit()}
      onCancel={() => close(false)}
      confirmLoading={disable.isPending}
      destroyOnHidden
      centered
    >
      <Typography.Paragraph type="warning">{t('twoFactor.disableWarning')}</Typography.Paragraph>
      <Form<Values>
        form={form}
        name="two-factor-disable"
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        aria-label={t('twoFactor.disableTitle')}
      >
        <p>{usesRecoveryCode ? t('twoFactor.disableRecoveryHint') : t('twoFactor.disableCodeHint')}</p>
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
        <Button type="link" className="two-factor-disable__toggle" onClick={toggle}>
          {usesRecoveryCode ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
        </Button>
      </Form>
    </Modal>
  );
}
