import { App, Button, Descriptions, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_MAX } from '@paydesk/shared/security/security.schemas.ts';
import { PageContainer, SectionCard } from '../../../components/page-container.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { isHttpError } from '../../../lib/http.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { TimeZoneSelect } from '../components/time-zone-select.tsx';
import '../components/security.css';

type Values = { name: string; email: string; timezone: string };

/** Settings > Profile: name, email and the time zone dates are shown and filtered in. */
export default function PersonalDataPage() {
  const { t } = useTranslation(['security', 'routes']);
  const { message } = App.useApp();
  const user = useCurrentUser();
  const [form] = Form.useForm<Values>();
  const update = useUpdateProfile();

  useEffect(() => {
    if (user)
      form.setFieldsValue({
        name: user.name,
        email: user.email,
        timezone: user.timezone ?? '',
      });
  }, [form, user]);

  const submit = async (values: Values) => {
    try {
      await update.mutateAsync({
        name: values.name.trim(),
        email: values.email.trim(),
        timezone: values.timezone || null,
      });
      message.success(t('profile.saved'));
    } catch (error) {
      if (!isHttpError(error)) throw error;
      form.setFields(error.formErrors<keyof Values>('email'));
    }
  };

  return (
    <PageContainer title={t('routes:personalData')}>
      <SectionCard title={t('profile.title')}>
        {user && (
          <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('profile.merchant')}>
              {user.merchant.name} ({user.merchant.no})
            </Descriptions.Item>
            <Descriptions.Item label={t('profile.roles')}>{user.roles.join(', ')}</Descriptions.Item>
          </Descriptions>
        )}
        <Form<Values>
          form={form}
          name="profile"
          layout="vertical"
          style={{ maxWidth: 480 }}
          onFinish={submit}
          onFinishFailed={() => message.warning(t('validation.incomplete'))}
          aria-label={t('profile.title')}
        >
          <Form.Item
            name="name"
            label={t('profile.name')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('validation.nameRequired'),
              },
              { max: TEXT_MAX, message: t('validation.nameTooLong') },
            ]}
          >
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('profile.email')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('validation.emailRequired'),
              },
              { type: 'email', message: t('validation.emailInvalid') },
            ]}
          >
            <Input autoComplete="email" />
          </Form.Item>
          <Form.Item name="timezone" label={t('profile.timezone')} extra={t('profile.timezoneHelp')}>
            <TimeZoneSelect />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            {t('profile.save')}
          </Button>
        </Form>
      </SectionCard>
    </PageContainer>
  );
}
