import { useTranslation } from 'react-i18next';
import type { TodayRefunds } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { AmountCountCard } from './figures-card.tsx';

/**
 * Today's refunds of collections (the user's day; those that did not fail, DESIGN 14): amount and count,
 * a card under the collection card, laid out as it is. The whole card opens today's refunds in their list.
 */
export function TodayRefundsCard({ today, figures }: { today: string; figures: TodayRefunds }) {
  const { t } = useTranslation('dashboard');
  const search = new URLSearchParams({ start_time: today, end_time: today });
  return (
    <AmountCountCard
      to={`/collection/refunds?${search}`}
      label={t('refunds.open')}
      title={t('todayRefunds')}
      testId="today-refunds"
      amountTitle={t('refunds.amount')}
      countTitle={t('refunds.count')}
      figures={figures}
    />
  );
}
