import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { fromMinor, toMinor } from '@paydesk/shared/money.ts';
import { RejectPayoutBodySchema } from '@paydesk/shared/payouts/payout-approval.schemas.ts';
import type { PayoutDetail } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { useFormRefusal } from '../../../components/money-form.tsx';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';
import type { StepUpValues } from '../../../components/step-up-fields.tsx';
import { StepUpModal } from '../../../components/step-up-modal.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { isHttpError } from '../../../lib/http.ts';
import { trimmed, zodRule } from '../../../lib/zod-rule.ts';
import { useApprovePayout, useRejectPayout } from '../api/review-payout.ts';

/** Refusals that belong to no field: shown above the dialog's buttons. */
const NOT_A_FIELD: Partial<Record<string, 'payout'>> = {
  [ERROR_CODES.makerCannotApprove]: 'payout',
  [ERROR_CODES.invalidTransition]: 'payout',
};

/**
 * A payout's approval in its drawer (DESIGN 16): who made it and who approved or rejected it; for a payout
 * waiting for approval, to a user with payout:approve, Approve (not to its maker: the server refuses it
 * too) and Reject.
 */
export function PayoutApproval({ payout }: { payout: PayoutDetail }) {
  const { t } = useTranslation('payouts');
  const user = useCurrentUser();
  const canApprove = useHasPerm('payout:approve');
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const isWaiting = payout.status === 'pending_approval';
  const isMaker = user !== undefined && payout.created_by_user_id === user.id;
  const reviewedLabel = payout.status === 'rejected' ? t('detail.rejectedBy') : t('detail.reviewedBy');
  return (
    <section data-testid="payout-approval">
      {isWaiting && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={isMaker && canApprove ? t('approval.ownHint') : t('approval.waiting')}
        />
      )}
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'madeBy',
            label: t('detail.madeBy'),
            children: payout.created_by?.name ?? t('approval.gatewayMaker'),
          },
          ...(payout.reviewed_by
            ? [
                { key: 'reviewedBy', label: reviewedLabel, children: payout.reviewed_by.name },
                {
                  key: 'reviewedAt',
                  label: t('detail.reviewedAt'),
                  children: <DateTime value={payout.reviewed_at} />,
                },
              ]
            : []),
        ]}
      />
      {isWaiting && canApprove && (
        <Flex gap={8} justify="flex-end" style={{ marginTop: 12 }}>
          <Button danger icon={<CloseOutlined />} onClick={() => setDialog('reject')}>
            {t('approval.reject')}
          </Button>
          {!isMaker && (
            <Button type="primary" icon={<CheckOutlined />} onClick={() => setDialog('approve')}>
              {t('approval.approve')}
            </Button>
          )}
        </Flex>
      )}
      {dialog === 'approve' && <ApproveDialog payout={payout} onClose={() => setDialog(null)} />}
      {dialog === 'reject' && <RejectDialog payout={payout} onClose={() => setDialog(null)} />}
    </section>
  );
}

/** Amount + fee, what a rejection gives back (in minor units: never a float). */
const totalOf = ({ amount, fee, currency }: PayoutDetail) =>
  formatMoney(fromMinor(toMinor(amount, currency) + toMinor(fee, currency), currency), currency);

function ApproveDialog({ payout, onClose }: { payout: PayoutDetail; onClose: () => void }) {
  const { t } = useTranslation('payouts');
  const { message } = App.useApp();
  const [form] = Form.useForm<StepUpValues>();
  const approve = useApprovePayout(payout.trade_no);
  return (
    <StepUpModal
      form={form}
      name="approve-payout"
      title={t('approval.approveTitle', { tradeNo: payout.trade_no })}
      okText={t('approval.approve')}
      cancelText={t('approval.cancel')}
      onClose={onClose}
      isPending={approve.isPending}
      fieldOfCode={NOT_A_FIELD}
      autoFocus
      submit={async (values) => {
        await approve.mutateAsync(values);
        message.success(t('approval.approved', { tradeNo: payout.trade_no }));
        onClose();
      }}
    >
      <Typography.Paragraph>
        {t('approval.approveHint', {
          amount: formatMoney(payout.amount, payout.currency),
          currency: currencyUnit(payout.currency),
          payee: payout.payee_name,
          channel: payout.channel,
        })}
      </Typography.Paragraph>
    </StepUpModal>
  );
}

function RejectDialog({ payout, onClose }: { payout: PayoutDetail; onClose: () => void }) {
  const { t } = useTranslation('payouts');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useRejectPayout(payout.trade_no);
  const { refusal, clearRefusal, showRefusal } = useFormRefusal<'reason' | 'payout'>(form, NOT_A_FIELD);
  const onFinish = async ({ reason }: { reason: string }) => {
    clearRefusal();
    try {
      await reject.mutateAsync({ reason: reason.trim() });
      message.success(t('approval.rejected', { tradeNo: payout.trade_no }));
      onClose();
    } catch (error) {
      if (!isHttpError(error)) throw error;
      showRefusal(error);
    }
  };
  return (
    <Modal
      open
      title={t('approval.rejectTitle', { tradeNo: payout.trade_no })}
      okText={t('approval.reject')}
      okButtonProps={{ danger: true }}
      cancelText={t('approval.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={reject.isPending}
      mask={{ closable: false }}
      destroyOnHidden
      centered
    >
      <Form<{ reason: string }>
        form={form}
        name="reject-payout"
        layout="vertical"
        aria-label={t('approval.rejectTitle', { tradeNo: payout.trade_no })}
        onFinish={(values) => void onFinish(values)}
      >
        <Typography.Paragraph>
          {t('approval.rejectHint', { amount: totalOf(payout), currency: currencyUnit(payout.currency) })}
        </Typography.Paragraph>
        <Form.Item
          name="reason"
          label={t('approval.reason')}
          required
          rules={[zodRule(RejectPayoutBodySchema.shape.reason, () => t('approval.reasonRequired'), trimmed)]}
        >
          <Input.TextArea
            rows={2}
            maxLength={255}
            showCount
            placeholder={t('approval.reasonPlaceholder')}
            autoFocus
          />
        </Form.Item>
        {refusal && <Alert type="error" showIcon title={refusal} role="alert" />}
      </Form>
    </Modal>
  );
}
