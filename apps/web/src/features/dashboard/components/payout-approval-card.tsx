import { AuditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TodayRefunds } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { AmountCountCard } from './figures-card.tsx';

/**
 * Payouts waiting for approval (DESIGN 16), whatever day they were made: how many and their amount, under
 * the payout card. The whole card opens them in Send money history.
 */
export function PayoutApprovalCard({ figures }: { figures: TodayRefunds }) {
  const { t } = useTranslation('dashboard');
  return (
    <AmountCountCard
      to="/behalfPay/transfers?status=pending_approval"
      label={t('approval.open')}
      title={
        <span>
          <AuditOutlined aria-hidden style={{ marginRight: 8 }} />
          {t('approval.title')}
        </span>
      }
      testId="payout-approval"
      amountTitle={t('approval.amount')}
      countTitle={t('approval.count')}
      figures={figures}
    />
  );
}
