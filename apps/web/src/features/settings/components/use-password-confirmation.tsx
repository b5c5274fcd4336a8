import { Form, Input, Modal } from 'antd';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError, type RequestOptions } from '../../../lib/http.ts';
import { isPasswordConfirmed, useConfirmPassword } from '../api/confirm-password.ts';
import { securityFieldError } from '../security-messages.ts';

type Pending = { resolve: (confirmed: boolean) => void };

const isConfirmed = () => isPasswordConfirmed().catch(() => false);

/**
 * Laravel's password confirmation, the way Jetstream's console does it: run an action; when the server
 * answers 423 (no password typed in the last three hours), ask for the password, then run it again.
 * Returns undefined when the user cancels.
 */
export function usePasswordConfirmation(): {
  withConfirmation: <T>(
    action: (options: RequestOptions) => Promise<T>,
    handled?: readonly number[],
  ) => Promise<T | undefined>;
  dialog: ReactNode;
} {
  const { t } = useTranslation('security');
  const [form] = Form.useForm<{ password: string }>();
  const [isOpen, setIsOpen] = useState(false);
  const pending = useRef<Pending | null>(null);
  const confirm = useConfirmPassword();

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        pending.current = { resolve };
        form.resetFields();
        setIsOpen(true);
      }),
    [form],
  );

  const close = (confirmed: boolean) => {
    setIsOpen(false);
    pending.current?.resolve(confirmed);
    pending.current = null;
  };

  const withConfirmation = useCallback(
    async <T,>(
      action: (options: RequestOptions) => Promise<T>,
      handled: readonly number[] = [],
    ): Promise<T | undefined> => {
      // Ask first when the server says the confirmation is missing, as Jetstream does, rather than
      // provoking a 423; a confirmation that lapses in between still gets its 423 and the dialog.
      if (await isConfirmed()) {
        try {
          return await action({ handled: [423, ...handled] });
        } catch (error) {
          if (!isHttpError(error) || error.status !== 423) throw error;
        }
      }
      if (!(await ask())) return undefined;
      return action({ handled });
    },
    [ask],
  );

  const submit = async ({ password }: { password: string }) => {
    try {
      await confirm.mutateAsync(password);
      close(true);
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields([
        {
          name: 'password',
          errors: [securityFieldError(error, 'password', t)],
        },
      ]);
    }
  };

  const dialog = (
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

  return { withConfirmation, dialog };
}
