import { Form, Input, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmPassword } from '../lib/auth/confirm-password.ts';
import { isHttpError } from '../lib/http.ts';
import { registerPasswordPrompt } from '../lib/password-prompt.ts';

/**
 * The password dialog of Laravel's password confirmation, the way Jetstream's console shows it. Mounted
 * once by the layout; the HTTP client opens it when a call answers 423 password_confirmation_required
 * and sends the call again once the password is confirmed.
 */
export function PasswordPromptHost() {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<{ password: string }>();
  const [isOpen, setIsOpen] = useState(false);
  const pending = useRef<((confirmed: boolean) => void) | null>(null);
  const confirm = useConfirmPassword();

  useEffect(
    () =>
      registerPasswordPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            pending.current = resolve;
            form.resetFields();
            setIsOpen(true);
          }),
      ),
    [form],
  );

  const close = (confirmed: boolean) => {
    setIsOpen(false);
    pending.current?.(confirmed);
    pending.current = null;
  };

  const submit = async ({ password }: { password: string }) => {
    try {
      await confirm.mutateAsync(password);
      close(true);
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields(error.formErrors('password'));
    }
  };

  return (
    <Modal
      open={isOpen}
      title={t('confirmPassword.title')}
      okText={t('confirmPassword.submit')}
      cancelText={t('confirmPassword.cancel')}
      confirmLoading={confirm.isPending}
      onOk={() => form.submit()}
      onCancel={() => close(false)}
      destroyOnHidden
      centered
    >
      <p>{t('confirmPassword.description')}</p>
      <Form form={form} name="confirm-password" layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="password"
          label={t('confirmPassword.password')}
          rules={[{ required: true, message: t('validation.loginPasswordRequired') }]}
        >
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
