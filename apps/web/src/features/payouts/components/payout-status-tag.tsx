import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PayoutStatus } from '@paydesk/shared/payouts/payouts.schemas.ts';

const STATUS_COLORS: Record<PayoutStatus, string> = {
  pending: 'default',
  processing: 'processing',
  success: 'success',
  failed: 'error',
  cancelled: 'default',
  rejected: 'error',
  refund_received: 'warning',
};

/** A payout's status in the console's language (DESIGN section 4). */
export function PayoutStatusTag({ status }: { status: PayoutStatus }) {
  const { t } = useTranslation('payouts');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
