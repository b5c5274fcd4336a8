import { Alert, Form, Input, Modal, Select } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLES } from '@paydesk/shared/auth/roles.ts';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { InviteBodySchema, TeamRoleSchema } from '@paydesk/shared/team/team.schemas.ts';
import {
  isTwoFactorRequired,
  StepUpFields,
  stepUpFormErrors,
  type StepUpValues,
} from '../../../components/step-up-fields.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { zodRule } from '../../../lib/zod-rule.ts';

export type TeamDialogValues = StepUpValues & { email?: string; role?: (typeof ROLES)[number] };

/**
 * A change to the team, confirmed with the payment password and a Google code: the invitation (email and
 * role), a new role, or one of the row actions (its `intro` says what happens). A field's refusal shows
 * under it; a refusal of the whole change (the last ROOT, one's own account) above the form.
 */
export function TeamDialog({
  open,
  title,
  okText,
  intro,
  fields,
  initialRole,
  danger = false,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  intro?: ReactNode;
  fields: 'invite' | 'role' | 'none';
  initialRole?: (typeof ROLES)[number];
  danger?: boolean;
  onSubmit: (values: TeamDialogValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('team');
  const [form] = Form.useForm<TeamDialogValues>();
  const [isSending, setSending] = useState(false);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setNeedsTwoFactor(false);
    setRefusal(null);
    onClose();
  };

  const submit = async (values: TeamDialogValues) => {
    setSending(true);
    setRefusal(null);
    try {
      await onSubmit(values);
      close();
    } catch (error) {
      if (isTwoFactorRequired(error)) return setNeedsTwoFactor(true);
      if (!isHttpError(error)) throw error;
      if (error.code === ERROR_CODES.emailTaken) {
        form.setFields([{ name: 'email', errors: [error.message] }]);
      } else if (error.status === 404 || error.status === 409) {
        setRefusal(error.message);
      } else {
        form.setFields(stepUpFormErrors<'email' | 'role'>(error));
      }
    } finally {
      setSending(false);
    }
  };

  const roleOptions = ROLES.map((role) => ({ value: role, label: `${role} · ${t(`roles.${role}`)}` }));

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={isSending}
      okButtonProps={{ hidden: needsTwoFactor, danger }}
      destroyOnHidden
      centered
    >
      {needsTwoFactor ? (
        <TwoFactorRequired compact />
      ) : (
        <>
          {intro}
          {refusal && (
            <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} role="alert" />
          )}
          <Form<TeamDialogValues>
            form={form}
            name={`team-${fields}`}
            layout="vertical"
            requiredMark={false}
            onFinish={submit}
            aria-label={title}
            initialValues={{ role: initialRole ?? 'VIEWER' }}
          >
            {fields === 'invite' && (
              <Form.Item
                name="email"
                label={t('email')}
                required
                rules={[zodRule(InviteBodySchema.shape.email, () => t('emailInvalid'))]}
              >
                <Input type="email" autoComplete="off" autoFocus placeholder="name@company.com" />
              </Form.Item>
            )}
            {fields !== 'none' && (
              <Form.Item
                name="role"
                label={t('role')}
                required
                rules={[zodRule(TeamRoleSchema, () => t('roleRequired'))]}
              >
                <Select options={roleOptions} />
              </Form.Item>
            )}
            <StepUpFields autoFocus={fields === 'none'} />
          </Form>
        </>
      )}
    </Modal>
  );
}
