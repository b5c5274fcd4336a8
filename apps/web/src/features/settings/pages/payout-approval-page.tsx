import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exponentOf } from '@paydesk/shared/money.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { isTwoFactorRequired, StepUpFields, stepUpFormErrors } from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import {
  type UpdatePayoutApprovalValues,
  usePayoutApproval,
  useUpdatePayoutApproval,
} from '../api/payout-approval.ts';

type Threshold = 'payout_approval_threshold' | 'gateway_payout_approval_threshold';

/**
 * Settings > Payout approval (ROOT, DESIGN 16): the amounts from which a console payout and a gateway
 * payout wait for a second user's approval, in the mode the console is in; 0 is off. Saving asks for the
 * payment password and a Google code; a wrong amount is named by the server under its field.
 */
export default function PayoutApprovalPage() {
  const { t } = useTranslation(['settings', 'routes', 'security']);
  const { message } = App.useApp();
  const { data, isPending, isError } = usePayoutApproval();
  const update = useUpdatePayoutApproval();
  const [form] = Form.useForm<UpdatePayoutApprovalValues>();
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);

  useEffect(() => {
    if (data)
      form.setFieldsValue({
        payout_approval_threshold: data.payout_approval_threshold,
        gateway_payout_approval_threshold: data.gateway_payout_approval_threshold,
      });
  }, [form, data]);

  const save = async (values: UpdatePayoutApprovalValues) => {
    try {
      await update.mutateAsync({
        ...values,
        payout_approval_threshold: values.payout_approval_threshold.trim(),
        gateway_payout_approval_threshold: values.gateway_payout_approval_threshold.trim(),
      });
      form.resetFields(['payment_password', 'code']);
      message.success(t('payoutApproval.saved'));
    } catch (error) {
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      form.setFields(stepUpFormErrors<Threshold>(error));
    }
  };

  let body;
  if (isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (isError)
    body = <Typography.Text type="secondary">{t('payoutApproval.loadFailed')}</Typography.Text>;
  else {
    const decimals = exponentOf(data.currency);
    const pattern = new RegExp(decimals > 0 ? `^\\d{1,15}(\\.\\d{1,${decimals}})?$` : '^\\d{1,15}$');
    const thresholdRules = [
      { required: true, whitespace: true, message: t('payoutApproval.required') },
      {
        validator: async (_: unknown, value?: string) => {
          if (value && value.trim() && !pattern.test(value.trim()))
            throw new Error(t('payoutApproval.format', { decimals }));
        },
      },
    ];
    const isOff = (field: Threshold) => /^0*(\.0*)?$/.test(data[field]);
    const field = (name: Threshold, label: string, help: string) => (
      <Form.Item name={name} label={label} extra={help} rules={thresholdRules}>
        <Input
          inputMode="decimal"
          autoComplete="off"
          maxLength={22}
          suffix={isOff(name) ? `${data.currency} · ${t('payoutApproval.off')}` : data.currency}
        />
      </Form.Item>
    );
    body = (
      <>
        <Typography.Paragraph type="secondary">
          {t('payoutApproval.description', { mode: t(`payoutApproval.modes.${data.mode}`) })}
        </Typography.Paragraph>
        {needsTwoFactor && <TwoFactorRequired compact />}
        <Form<UpdatePayoutApprovalValues>
          form={form}
          name="payout-approval"
          layout="vertical"
          requiredMark={false}
          onFinish={save}
          onFinishFailed={() => message.warning(t('security:validation.incomplete'))}
          style={{ maxWidth: 520 }}
          aria-label={t('routes:payoutApproval')}
        >
          {field('payout_approval_threshold', t('payoutApproval.console'), t('payoutApproval.consoleHelp'))}
          {field(
            'gateway_payout_approval_threshold',
            t('payoutApproval.gateway'),
            t('payoutApproval.gatewayHelp'),
          )}
          <StepUpFields />
          <Button
            type="primary"
            htmlType="submit"
            icon={<SafetyCertificateOutlined />}
            loading={update.isPending}
          >
            {t('payoutApproval.save')}
          </Button>
        </Form>
        {data.updated_at && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
            {t('payoutApproval.updatedAt')}: <DateTime value={data.updated_at} />
          </Typography.Paragraph>
        )}
      </>
    );
  }

  return (
    <PageContainer title={t('routes:payoutApproval')}>
      <Card>{body}</Card>
    </PageContainer>
  );
}
