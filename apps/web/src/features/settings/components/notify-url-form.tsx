import { Button, Divider, Form, Input, Space, App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { UpdateNotifyUrlBodySchema } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { isHttpError } from '../../../lib/http.ts';
import { trimmed, zodRule } from '../../../lib/zod-rule.ts';
import type { Mode } from '../../../stores/mode.ts';
import { useUpdateNotifyUrl } from '../api/update-notify-url.ts';

const NOTIFY_URL_MAX = 500;

type Values = { notify_url?: string };

/**
 * The default callback address of the key of `mode` (orders that name none of their own are called back
 * here): each mode's key has its own, as Stripe has a webhook endpoint per mode.
 */
export function NotifyUrlForm({ notifyUrl, mode }: { notifyUrl: string | null; mode: Mode }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const update = useUpdateNotifyUrl();

  useEffect(() => {
    form.setFieldsValue({ notify_url: notifyUrl ?? '' });
  }, [form, notifyUrl]);

  const save = async ({ notify_url: value = '' }: Values) => {
    try {
      await update.mutateAsync({ mode, notify_url: value.trim() || null });
      message.success(t('accessKey.notifyUrlSaved'));
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields(error.formErrors<keyof Values>('notify_url'));
    }
  };

  return (
    <>
      <Divider />
      <Form<Values>
        form={form}
        name="notify-url"
        layout="vertical"
        requiredMark={false}
        onFinish={save}
        initialValues={{ notify_url: notifyUrl ?? '' }}
        style={{ maxWidth: 640 }}
      >
        <Form.Item
          label={t('accessKey.notifyUrl')}
          extra={t('accessKey.notifyUrlHint')}
          style={{ marginBottom: 0 }}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item
              name="notify_url"
              noStyle
              rules={[
                // An empty address clears it (the form sends null).
                zodRule(
                  UpdateNotifyUrlBodySchema.shape.notify_url,
                  (issue) =>
                    issue.code === 'too_big'
                      ? t('accessKey.notifyUrlTooLong', { count: NOTIFY_URL_MAX })
                      : t('accessKey.notifyUrlInvalid'),
                  trimmed,
                ),
              ]}
            >
              <Input
                aria-label={t('accessKey.notifyUrl')}
                placeholder={t('accessKey.notifyUrlPlaceholder')}
                allowClear
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              {t('accessKey.save')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </>
  );
}
