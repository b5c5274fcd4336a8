import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';

const STATUS_COLORS: Record<WithdrawalStatus, string> = {
  pending_review: 'processing',
  approved: 'blue',
  paid: 'success',
  rejected: 'error',
};

/** A withdrawal's review status in the console's language (DESIGN section 4). */
export function WithdrawalStatusTag({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation('withdrawal');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
