import { KeyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { PAYMENT_PASSWORD_MIN } from '@paydesk/shared/security/security.schemas.ts';
import { useTimeZone } from '../../../components/date-time.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import { PageContainer, SectionCard } from '../../../components/page-container.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { useUserMeta } from '../api/get-user-meta.ts';
import { useResetPaymentPassword } from '../api/reset-payment-password.ts';
import { type PaymentPasswordBody, useUpdatePaymentPassword } from '../api/update-payment-password.ts';

type Values = Required<Omit<PaymentPasswordBody, 'password' | 'current_payment_password'>> & {
  password?: string;
  current_payment_password?: string;
};

const CODE = /^\d{6}$/;

/**
 * Settings > Payment password: set it (login password + Google code), change it (current one + code), or,
 * forgotten, reset it (login password + code).
 */
export default function PaymentPasswordPage() {
  const { t } = useTranslation(['security', 'routes']);
  const { message } = App.useApp();
  const meta = useUserMeta();
  const [form] = Form.useForm<Values>();
  const update = useUpdatePaymentPassword();
  const reset = useResetPaymentPassword();
  const [isResetting, setResetting] = useState(false);
  const [lockMessage, setLockMessage] = useState<string | null>(null);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const timeZone = useTimeZone();

  if (meta.isLoading || !meta.data) {
    return (
      <PageContainer title={t('routes:paymentPassword')}>
        <SectionCard>
          <Skeleton active />
        </SectionCard>
      </PageContainer>
    );
  }
  if (!meta.data.two_factor_enabled || needsTwoFactor) {
    return (
      <PageContainer title={t('routes:paymentPassword')}>
        <SectionCard>
          <TwoFactorRequired />
        </SectionCard>
      </PageContainer>
    );
  }

  const isSet = meta.data.payment_password_set;
  // A forgotten payment password is proven like a first one: with the login password.
  const isReset = isSet && isResetting;
  const proofField = isSet && !isReset ? 'current_payment_password' : 'password';

  const submit = async (values: Values) => {
    setLockMessage(null);
    const next = {
      payment_password: values.payment_password,
      payment_password_confirmation: values.payment_password_confirmation,
      code: values.code.trim(),
    };
    try {
      if (isReset) {
        await reset.mutateAsync({ password: values.password ?? '', ...next });
        setResetting(false);
      } else {
        await update.mutateAsync({
          ...(isSet
            ? { current_payment_password: values.current_payment_password }
            : { password: values.password }),
          ...next,
        });
      }
      form.resetFields();
      message.success(t('paymentPassword.saved'));
    } catch (error) {
      if (!isHttpError(error)) throw error;
      if (error.code === ERROR_CODES.twoFactorRequired) return setNeedsTwoFactor(true);
      // The lock's text (with the minutes left) is the HTTP client's; the page shows it above the form.
      if (error.code === ERROR_CODES.paymentLocked) return setLockMessage(error.message);
      form.setFields(error.formErrors<keyof Values>('code'));
    }
  };

  const lockedUntil = meta.data.payment_locked_until;

  return (
    <PageContainer title={t('routes:paymentPassword')}>
      <SectionCard
        title={
          <Space>
            <KeyOutlined />
            {t('paymentPassword.title')}
            <Tag color={isSet ? 'success' : 'default'} data-testid="payment-password-status">
              {isSet ? t('paymentPassword.statusSet') : t('paymentPassword.statusNotSet')}
            </Tag>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">
          {isReset
            ? t('paymentPassword.descriptionReset')
            : isSet
              ? t('paymentPassword.descriptionSet')
              : t('paymentPassword.descriptionNew')}
        </Typography.Paragraph>
        {(lockMessage || lockedUntil) && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={
              lockMessage ??
              t('paymentPassword.lockedUntil', {
                time: formatDateTime(lockedUntil ?? '', timeZone),
              })
            }
          />
        )}
        <Form<Values>
          form={form}
          name="payment-password"
          layout="vertical"
          style={{ maxWidth: 420 }}
          onFinish={submit}
          onFinishFailed={() => message.warning(t('validation.incomplete'))}
          aria-label={t('paymentPassword.title')}
        >
          <Form.Item
            key={proofField}
            name={proofField}
            label={
              proofField === 'current_payment_password'
                ? t('paymentPassword.current')
                : t('paymentPassword.loginPassword')
            }
            rules={[
              {
                required: true,
                message:
                  proofField === 'current_payment_password'
                    ? t('validation.currentPaymentPasswordRequired')
                    : t('validation.loginPasswordRequired'),
              },
            ]}
            extra={
              isSet && (
                <Button
                  type="link"
                  size="small"
                  style={{ paddingInline: 0 }}
                  onClick={() => {
                    form.resetFields();
                    setLockMessage(null);
                    setResetting(!isReset);
                  }}
                >
                  {isReset ? t('paymentPassword.useCurrent') : t('paymentPassword.forgot')}
                </Button>
              )
            }
          >
            <Input.Password
              autoComplete={proofField === 'current_payment_password' ? 'off' : 'current-password'}
            />
          </Form.Item>
          <Form.Item
            name="payment_password"
            label={t('paymentPassword.new')}
            rules={[
              {
                required: true,
                message: t('validation.paymentPasswordRequired'),
              },
              {
                min: PAYMENT_PASSWORD_MIN,
                message: t('validation.paymentPasswordMin', {
                  count: PAYMENT_PASSWORD_MIN,
                }),
              },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="payment_password_confirmation"
            label={t('paymentPassword.confirm')}
            dependencies={['payment_password']}
            rules={[
              {
                required: true,
                message: t('validation.confirmPasswordRequired'),
              },
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || value === getFieldValue('payment_password')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('validation.confirmMismatch'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('paymentPassword.code')}
            extra={t('paymentPassword.codeHelp')}
            rules={[
              { required: true, message: t('validation.codeRequired') },
              { pattern: CODE, message: t('validation.codeLength') },
            ]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={update.isPending || reset.isPending}>
            {isReset
              ? t('paymentPassword.submitReset')
              : isSet
                ? t('paymentPassword.submitChange')
                : t('paymentPassword.submitSet')}
          </Button>
        </Form>
      </SectionCard>
    </PageContainer>
  );
}
