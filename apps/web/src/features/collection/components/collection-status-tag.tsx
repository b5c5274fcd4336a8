import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CollectionStatus, SettlementStatus } from '@paydesk/shared/collections/collections.schemas.ts';

const STATUS_COLORS: Record<CollectionStatus, string> = {
  to_be_paid: 'processing',
  paid: 'success',
  closed: 'default',
  failed: 'error',
};

const SETTLEMENT_COLORS: Record<SettlementStatus, string> = {
  unsettled: 'default',
  pending_settlement: 'warning',
  settled: 'success',
};

/** A collection order's status in the console's language (spec section 4). */
export function CollectionStatusTag({ status }: { status: CollectionStatus }) {
  const { t } = useTranslation('collection');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** Whether a paid order's money has reached the balance yet. */
export function SettlementStatusTag({ status }: { status: SettlementStatus }) {
  const { t } = useTranslation('collection');
  return <Tag color={SETTLEMENT_COLORS[status]}>{t(`settlementStatus.${status}`)}</Tag>;
}
