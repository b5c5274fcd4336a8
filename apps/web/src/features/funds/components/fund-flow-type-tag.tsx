import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { POSTED_TYPE_SIGN, type FundFlowType } from '@paydesk/shared/funds/funds.schemas.ts';

const MONEY_IN = new Set<string>([
  ...Object.entries(POSTED_TYPE_SIGN)
    .filter(([, sign]) => sign > 0)
    .map(([type]) => type),
  'withdrawal_rejected',
  'funds_unfrozen',
]);

/** The type's label in the console's language, green for money in, orange for money out. */
export function FundFlowTypeTag({ type }: { type: FundFlowType }) {
  const { t } = useTranslation('funds');
  return <Tag color={MONEY_IN.has(type) ? 'green' : 'orange'}>{t(`types.${type}`)}</Tag>;
}
