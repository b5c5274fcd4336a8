import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Form, Input, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IP_WHITELIST_MAX_ENTRIES,
  type UpdateIpWhitelistBody,
} from '@paydesk/shared/access-key/access-key.schemas.ts';
import { isTwoFactorRequired, StepUpFields, stepUpFormErrors } from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { useIpWhitelist } from '../api/get-ip-whitelist.ts';
import { useUpdateIpWhitelist } from '../api/update-ip-whitelist.ts';

// An IPv4 address, an IPv4 range and an IPv6 range from the documentation blocks (RFC 5737, RFC 3849).
const EXAMPLE = '127.0.0.1\n203.0.113.0/24\n2001:db8::/32';

const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Settings > IP whitelist: the addresses the gateway API accepts calls from, one per line. Saving asks
 * for the payment password and a Google code; a wrong line is named by the server under the field.
 */
export function IpWhitelistCard({ titled = true }: { titled?: boolean }) {
  const { t } = useTranslation(['settings', 'security']);
  const { message } = App.useApp();
  const { data, isPending, isError } = useIpWhitelist();
  const update = useUpdateIpWhitelist();
  const [form] = Form.useForm<UpdateIpWhitelistBody>();
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);

  const saved = data?.ips.join('\n');
  useEffect(() => {
    if (saved !== undefined) form.setFieldsValue({ ip_address: saved });
  }, [form, saved]);

  const save = async (values: UpdateIpWhitelistBody) => {
    try {
      await update.mutateAsync(values);
      form.resetFields(['payment_password', 'code']);
      message.success(t('ipWhitelist.saved'));
    } catch (error) {
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      form.setFields(stepUpFormErrors<'ip_address'>(error));
    }
  };

  let body;
  if (isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (isError) body = <Typography.Text type="secondary">{t('ipWhitelist.loadFailed')}</Typography.Text>;
  else {
    body = (
      <>
        <Typography.Paragraph type="secondary">{t('ipWhitelist.description')}</Typography.Paragraph>
        {data.ips.length === 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('ipWhitelist.empty')}
            data-testid="ip-whitelist-empty"
          />
        )}
        {needsTwoFactor && <TwoFactorRequired compact />}
        <Form<UpdateIpWhitelistBody>
          form={form}
          name="ip-whitelist"
          layout="vertical"
          requiredMark={false}
          onFinish={save}
          onFinishFailed={() => message.warning(t('security:validation.incomplete'))}
          initialValues={{ ip_address: saved }}
          style={{ maxWidth: 520 }}
          aria-label={t('ipWhitelist.title')}
        >
          <Form.Item
            name="ip_address"
            label={t('ipWhitelist.label')}
            extra={t('ipWhitelist.help', { count: IP_WHITELIST_MAX_ENTRIES })}
            rules={[
              {
                validator: (_, value?: string) =>
                  linesOf(value ?? '').length > 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('ipWhitelist.required'))),
              },
              {
                validator: (_, value?: string) =>
                  linesOf(value ?? '').length <= IP_WHITELIST_MAX_ENTRIES
                    ? Promise.resolve()
                    : Promise.reject(
                        new Error(t('ipWhitelist.tooMany', { count: IP_WHITELIST_MAX_ENTRIES })),
                      ),
              },
            ]}
          >
            <Input.TextArea
              rows={6}
              spellCheck={false}
              placeholder={t('ipWhitelist.placeholder', { example: EXAMPLE })}
              style={{ fontFamily: 'monospace' }}
            />
          </Form.Item>
          <StepUpFields />
          <Button
            type="primary"
            htmlType="submit"
            icon={<SafetyCertificateOutlined />}
            loading={update.isPending}
          >
            {t('ipWhitelist.save')}
          </Button>
        </Form>
      </>
    );
  }

  return (
    <Card title={titled ? t('ipWhitelist.title') : undefined} style={{ marginBottom: 16 }}>
      {body}
    </Card>
  );
}
