import { Descriptions, Divider, Drawer, Empty, Skeleton, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { CallbackEvents } from '../../../components/callback-events.tsx';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { useCollection } from '../api/get-collection.ts';
import { useResendCallback } from '../api/resend-callback.ts';
import { CollectionStatusTag, SettlementStatusTag } from './collection-status-tag.tsx';

const STEP_COLORS: Record<string, string> = {
  created: 'blue',
  paid: 'green',
  failed: 'red',
  closed: 'gray',
  settled: 'green',
  notified: 'blue',
};

/** One collection order (GET /api/merchant/collections/{trade_no}): its fields, timeline and callbacks. */
export function CollectionDetailDrawer({
  tradeNo,
  onClose,
}: {
  tradeNo: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('collection');
  const { data: order, isLoading } = useCollection(tradeNo);
  const resend = useResendCallback();
  // Each resend sends a webhook: only collection:notify (not a read-only role) gets the button.
  const canResend = useHasPerm('collection:notify');
  const currency = order?.currency as Currency;
  return (
    <Drawer
      open={tradeNo !== undefined}
      onClose={onClose}
      title={t('detail.title', { tradeNo: tradeNo ?? '' })}
      size="large"
    >
      {isLoading || !order ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              {
                key: 'tradeNo',
                label: t('columns.tradeNo'),
                children: <Typography.Text copyable>{order.trade_no}</Typography.Text>,
              },
              {
                key: 'outTradeNo',
                label: t('columns.outTradeNo'),
                children: <Typography.Text copyable>{order.out_trade_no}</Typography.Text>,
              },
              {
                key: 'status',
                label: t('columns.status'),
                children: <CollectionStatusTag status={order.status} />,
              },
              {
                key: 'settlementStatus',
                label: t('columns.settlementStatus'),
                children: <SettlementStatusTag status={order.settlement_status} />,
              },
              {
                key: 'amount',
                label: t('columns.amount'),
                children: <MoneyText value={order.amount} currency={currency} unit="code" />,
              },
              {
                key: 'fee',
                label: t('columns.fee'),
                children: <MoneyText value={order.fee} currency={currency} unit="code" />,
              },
              { key: 'currency', label: t('detail.currency'), children: order.currency },
              { key: 'channel', label: t('columns.channel'), children: order.channel },
              { key: 'payerName', label: t('detail.payerName'), children: order.payer_name ?? '-' },
              { key: 'note', label: t('detail.note'), children: order.note ?? '-' },
              { key: 'settlementNo', label: t('detail.settlementNo'), children: order.settlement_no ?? '-' },
              {
                key: 'createdAt',
                label: t('columns.createdAt'),
                children: <DateTime value={order.created_at} />,
              },
              { key: 'paidAt', label: t('columns.paidAt'), children: <DateTime value={order.paid_at} /> },
              {
                key: 'expiresAt',
                label: t('detail.expiresAt'),
                children: <DateTime value={order.expires_at} />,
              },
              {
                key: 'settledAt',
                label: t('detail.settledAt'),
                children: <DateTime value={order.settled_at} />,
              },
            ]}
          />
          <Divider />
          <Typography.Title level={5}>{t('detail.timeline')}</Typography.Title>
          {order.timeline.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noTimeline')} />
          ) : (
            <div data-testid="collection-timeline">
              <Timeline
                items={order.timeline.map((item, index) => ({
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
            name="collection"
            events={order.callbacks}
            resend={
              canResend
                ? { onResend: () => resend.mutateAsync(order.trade_no), isPending: resend.isPending }
                : undefined
            }
          />
        </>
      )}
    </Drawer>
  );
}
