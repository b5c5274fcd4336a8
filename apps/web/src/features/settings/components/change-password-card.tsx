import { LockOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '@paydesk/shared/security/security.schemas.ts';
import { SectionCard } from '../../../components/page-container.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { type UpdatePasswordBody, useUpdatePassword } from '../api/update-password.ts';

/** Settings > Security: change the login password; the server signs out the user's other devices. */
export function ChangePasswordCard() {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const [form] = Form.useForm<UpdatePasswordBody>();
  const update = useUpdatePassword();

  const submit = async (values: UpdatePasswordBody) => {
    try {
      await update.mutateAsync(values);
      form.resetFields();
      message.success(t('password.changed'));
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields(error.formErrors<keyof UpdatePasswordBody>('current_password'));
    }
  };

  return (
    <SectionCard
      title={
        <Space>
          <LockOutlined />
          {t('password.title')}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('password.description')}</Typography.Paragraph>
      <Form<UpdatePasswordBody>
        form={form}
        name="change-password"
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={submit}
        onFinishFailed={() => message.warning(t('validation.incomplete'))}
        aria-label={t('password.title')}
      >
        <Form.Item
          name="current_password"
          label={t('password.current')}
          rules={[
            {
              required: true,
              message: t('validation.currentPasswordRequired'),
            },
          ]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[
            { required: true, message: t('validation.newPasswordRequired') },
            {
              min: PASSWORD_MIN,
              message: t('validation.passwordMin', { count: PASSWORD_MIN }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="password_confirmation"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            {
              required: true,
              message: t('validation.confirmPasswordRequired'),
            },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('validation.confirmMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('password.submit')}
        </Button>
      </Form>
    </SectionCard>
  );
}
