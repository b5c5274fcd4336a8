import { Alert, Descriptions, type DescriptionsProps, Drawer, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Recharge } from '@paydesk/shared/recharges/recharges.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { RechargeStatusTag } from './recharge-status-tag.tsx';
import { ScreenshotThumb } from './screenshot-thumb.tsx';

/** What an approval gave: the local and the USD value of the USDT received, at its rate. */
export function CreditedText({ row }: { row: Recharge }) {
  if (row.credited_amount === null) return <span>-</span>;
  return <MoneyText value={row.credited_amount} currency={row.credited_currency} unit="code" />;
}

function fieldsOf(row: Recharge, t: (key: string) => string): DescriptionsProps['items'] {
  return [
    {
      key: 'rechargeNo',
      label: t('columns.rechargeNo'),
      children: <Typography.Text copyable>{row.recharge_no}</Typography.Text>,
    },
    { key: 'status', label: t('columns.status'), children: <RechargeStatusTag status={row.status} /> },
    { key: 'currency', label: t('columns.currency'), children: row.currency },
    { key: 'network', label: t('columns.network'), children: row.network },
    {
      key: 'address',
      label: t('columns.address'),
      children: (
        <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
          {row.address}
        </Typography.Text>
      ),
    },
    {
      key: 'amount',
      label: t('columns.amount'),
      children: <MoneyText value={row.amount} currency="USDT" unit="code" />,
    },
    {
      key: 'received',
      label: t('columns.received'),
      children:
        row.received_amount === null ? (
          '-'
        ) : (
          <MoneyText value={row.received_amount} currency="USDT" unit="code" />
        ),
    },
    { key: 'rate', label: t('columns.rate'), children: row.rate ?? '-' },
    { key: 'credited', label: t('columns.credited'), children: <CreditedText row={row} /> },
    {
      key: 'creditedUsd',
      label: t('columns.creditedUsd'),
      children:
        row.credited_usd === null ? '-' : <MoneyText value={row.credited_usd} currency="USD" unit="code" />,
    },
    { key: 'reason', label: t('columns.reason'), children: row.reason ?? '-' },
    { key: 'createdAt', label: t('columns.createdAt'), children: <DateTime value={row.created_at} /> },
    { key: 'reviewedAt', label: t('columns.reviewedAt'), children: <DateTime value={row.reviewed_at} /> },
    {
      key: 'screenshot',
      label: t('columns.screenshot'),
      children: <ScreenshotThumb rechargeNo={row.recharge_no} size={200} whole />,
    },
  ];
}

/** One top-up from the list (the list carries every field): its review, what was credited, its screenshot. */
export function RechargeDetailDrawer({ row, onClose }: { row: Recharge | undefined; onClose: () => void }) {
  const { t } = useTranslation('recharge');
  return (
    <Drawer
      open={row !== undefined}
      onClose={onClose}
      title={t('detail.title', { no: row?.recharge_no ?? '' })}
      size="large"
    >
      {row && (
        <>
          {row.status === 'rejected' && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('detail.rejected')}
              description={row.reason}
              data-testid="recharge-rejected"
            />
          )}
          {row.status === 'pending_review' && (
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('detail.pending')} />
          )}
          <Descriptions column={1} bordered size="small" items={fieldsOf(row, t)} />
        </>
      )}
    </Drawer>
  );
}
