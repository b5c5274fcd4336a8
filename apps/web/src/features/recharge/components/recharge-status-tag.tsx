import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RechargeStatus } from '@paydesk/shared/recharges/recharges.schemas.ts';

const STATUS_COLORS: Record<RechargeStatus, string> = {
  pending_review: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** A top-up's review status in the console's language (DESIGN section 4). */
export function RechargeStatusTag({ status }: { status: RechargeStatus }) {
  const { t } = useTranslation('recharge');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
