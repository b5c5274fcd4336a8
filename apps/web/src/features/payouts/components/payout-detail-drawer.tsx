import {
  Alert,
  Descriptions,
  type DescriptionsProps,
  Divider,
  Drawer,
  Empty,
  Skeleton,
  Timeline,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { CallbackEvents } from '../../../components/callback-events.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { type PayoutDetail, usePayout } from '../api/get-payout.ts';
import { useResendPayoutCallback } from '../api/resend-callback.ts';
import { PayoutStatusTag } from './payout-status-tag.tsx';

const STEP_COLORS: Record<PayoutDetail['timeline'][number]['step'], string> = {
  created: 'blue',
  processing: 'blue',
  success: 'green',
  failed: 'red',
  cancelled: 'gray',
  rejected: 'red',
  refund_received: 'orange',
  notified: 'blue',
};

/** "Vietcombank (VCB)": the bank as the payout names it, by name, code or both. */
const bankOf = (payout: PayoutDetail): string | null => {
  if (payout.bank_name && payout.bank_code) return `${payout.bank_name} (${payout.bank_code})`;
  return payout.bank_name ?? payout.bank_code;
};

function fieldsOf(payout: PayoutDetail, t: (key: string) => string): DescriptionsProps['items'] {
  const { currency } = payout;
  const bank = bankOf(payout);
  // Bank details are the channel's country's: those a payout does not have are left out, not dashed.
  const optional = (key: string, label: string, value: string | null) =>
    value === null ? [] : [{ key, label, children: value }];
  return [
    {
      key: 'tradeNo',
      label: t('columns.tradeNo'),
      children: <Typography.Text copyable>{payout.trade_no}</Typography.Text>,
    },
    {
      key: 'outTradeNo',
      label: t('columns.outTradeNo'),
      children: <Typography.Text copyable>{payout.out_trade_no}</Typography.Text>,
    },
    { key: 'status', label: t('columns.status'), children: <PayoutStatusTag status={payout.status} /> },
    {
      key: 'amount',
      label: t('columns.amount'),
      children: <MoneyText value={payout.amount} currency={currency} unit="code" />,
    },
    {
      key: 'fee',
      label: t('columns.fee'),
      children: <MoneyText value={payout.fee} currency={currency} unit="code" />,
    },
    { key: 'currency', label: t('detail.currency'), children: currency },
    { key: 'channel', label: t('columns.channel'), children: payout.channel },
    { key: 'source', label: t('detail.source'), children: t(`sources.${payout.source}`) },
    {
      key: 'accountType',
      label: t('detail.accountType'),
      children: t(`accountTypes.${payout.account_type}`),
    },
    ...optional('bank', t('detail.bank'), bank),
    ...optional('branchName', t('detail.branchName'), payout.branch_name),
    ...optional('ifsc', t('detail.ifsc'), payout.ifsc),
    ...optional('cpfCnpj', t('detail.cpfCnpj'), payout.cpf_cnpj),
    { key: 'payee', label: t('columns.payee'), children: payout.payee_name },
    { key: 'account', label: t('columns.account'), children: payout.account_no },
    { key: 'note', label: t('detail.note'), children: payout.note ?? '-' },
    { key: 'createdAt', label: t('columns.createdAt'), children: <DateTime value={payout.created_at} /> },
    { key: 'finishedAt', label: t('columns.finishedAt'), children: <DateTime value={payout.finished_at} /> },
  ];
}

/** One payout (GET /api/merchant/payouts/{trade_no}): its fields, why it failed, its timeline and callbacks. */
export function PayoutDetailDrawer({
  tradeNo,
  onClose,
}: {
  tradeNo: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('payouts');
  const { data: payout, isLoading } = usePayout(tradeNo);
  const resend = useResendPayoutCallback();
  // Each resend sends a webhook: only payout:notify (not a read-only role) gets the button.
  const canResend = useHasPerm('payout:notify');
  return (
    <Drawer
      open={tradeNo !== undefined}
      onClose={onClose}
      title={t('detail.title', { tradeNo: tradeNo ?? '' })}
      size="large"
    >
      {isLoading || !payout ? (
        <Skeleton active />
      ) : (
        <>
          {payout.failure_reason && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('detail.failureReason')}
              description={payout.failure_reason}
              data-testid="payout-failure"
            />
          )}
          <Descriptions column={1} bordered size="small" items={fieldsOf(payout, t)} />
          <Divider />
          <Typography.Title level={5}>{t('detail.timeline')}</Typography.Title>
          {payout.timeline.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noTimeline')} />
          ) : (
            <div data-testid="payout-timeline">
              <Timeline
                items={payout.timeline.map((item, index) => ({
                  key: `${item.step}-${index}`,
                  color: STEP_COLORS[item.step],
                  title: <DateTime value={item.at} />,
                  content: t(`detail.steps.${item.step}`),
                }))}
              />
            </div>
          )}
          <Divider />
          <CallbackEvents
            name="payout"
            events={payout.callbacks}
            resend={
              canResend
                ? { onResend: () => resend.mutateAsync(payout.trade_no), isPending: resend.isPending }
                : undefined
            }
          />
        </>
      )}
    </Drawer>
  );
}
