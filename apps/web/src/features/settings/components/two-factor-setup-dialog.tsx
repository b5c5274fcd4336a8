import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../lib/http.ts';
import { useConfirmTwoFactor } from '../api/confirm-two-factor.ts';
import type { Authenticator } from '../api/get-authenticator.ts';
import { copyText, RecoveryCodes } from './recovery-codes.tsx';

const CODE = /^\d{6}$/;

/** "ABCD EFGH ..." for reading off the screen; copying gives the key without spaces. */
const groupsOfFour = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The guided setup after the password confirmation: scan the QR code (or copy the key), prove it with a
 * code, then save the recovery codes, shown this once.
 */
export function TwoFactorSetupDialog({
  authenticator,
  onClose,
}: {
  authenticator: Authenticator | null;
  onClose: (isEnabled: boolean) => void;
}) {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const [step, setStep] = useState(0);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [form] = Form.useForm<{ code: string }>();
  const confirm = useConfirmTwoFactor();

  const reset = () => {
    setStep(0);
    setRecoveryCodes([]);
    form.resetFields();
  };
  const close = () => {
    onClose(recoveryCodes.length > 0);
    reset();
  };

  const verify = async ({ code }: { code: string }) => {
    try {
      setRecoveryCodes(await confirm.mutateAsync(code.trim()));
      setStep(2);
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields(error.formErrors('code'));
    }
  };

  const copySecret = async () => {
    if (!authenticator) return;
    if (await copyText(authenticator.secretKey)) message.success(t('twoFactor.copied'));
    else message.error(t('twoFactor.copyFailed'));
  };

  const footer = [
    step === 0 && (
      <Button key="next" type="primary" onClick={() => setStep(1)}>
        {t('twoFactor.next')}
      </Button>
    ),
    step === 1 && (
      <Button key="back" onClick={() => setStep(0)}>
        {t('twoFactor.back')}
      </Button>
    ),
    step === 1 && (
      <Button key="verify" type="primary" loading={confirm.isPending} onClick={() => form.submit()}>
        {t('twoFactor.verify')}
      </Button>
    ),
    step === 2 && (
      <Button key="done" type="primary" onClick={close}>
        {t('twoFactor.done')}
      </Button>
    ),
  ].filter(Boolean);

  return (
    <Modal
      open={authenticator !== null}
      title={t('twoFactor.setupTitle')}
      footer={footer}
      onCancel={close}
      // The recovery codes are shown once: a click beside the dialog must not lose them.
      mask={{ closable: false }}
      destroyOnHidden
      centered
      width={560}
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('twoFactor.stepScan') },
          { title: t('twoFactor.stepVerify') },
          { title: t('twoFactor.stepSave') },
        ]}
      />
      {step === 0 && authenticator && (
        <div className="two-factor-scan">
          <p>{t('twoFactor.scanHint')}</p>
          <img
            className="two-factor-scan__qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(authenticator.svg)}`}
            alt={t('twoFactor.qrAlt')}
            width={192}
            height={192}
          />
          <div className="two-factor-scan__secret">
            <Typography.Text type="secondary">{t('twoFactor.secret')}</Typography.Text>
            <code data-testid="two-factor-secret">{groupsOfFour(authenticator.secretKey)}</code>
            <Button size="small" icon={<CopyOutlined />} onClick={copySecret}>
              {t('twoFactor.copySecret')}
            </Button>
          </div>
        </div>
      )}
      {step === 1 && (
        <Form form={form} name="two-factor-code" layout="vertical" requiredMark={false} onFinish={verify}>
          <p>{t('twoFactor.codeHint')}</p>
          <Form.Item
            name="code"
            label={t('twoFactor.code')}
            rules={[
              { required: true, message: t('validation.codeRequired') },
              { pattern: CODE, message: t('validation.codeLength') },
            ]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
          </Form.Item>
        </Form>
      )}
      {step === 2 && (
        <>
          <Typography.Paragraph type="warning">{t('twoFactor.recoveryHint')}</Typography.Paragraph>
          <RecoveryCodes codes={recoveryCodes} />
        </>
      )}
    </Modal>
  );
}
