import { Button, Divider, Form, Input, Space, App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../lib/http.ts';
import { useUpdateNotifyUrl } from '../api/update-notify-url.ts';

const NOTIFY_URL_MAX = 500;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

type Values = { notify_url?: string };

/** The merchant's default callback address (orders that name none of their own are called back here). */
export function NotifyUrlForm({ notifyUrl }: { notifyUrl: string | null }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const update = useUpdateNotifyUrl();

  useEffect(() => {
    form.setFieldsValue({ notify_url: notifyUrl ?? '' });
  }, [form, notifyUrl]);

  const save = async ({ notify_url: value = '' }: Values) => {
    try {
      await update.mutateAsync({ notify_url: value.trim() || null });
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
                { max: NOTIFY_URL_MAX, message: t('accessKey.notifyUrlTooLong', { count: NOTIFY_URL_MAX }) },
                {
                  validator: (_, value?: string) =>
                    !value?.trim() || isHttpUrl(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('accessKey.notifyUrlInvalid'))),
                },
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
