import { Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LimitKind } from '@paydesk/shared/limits/limits.schemas.ts';
import type { MerchantLimits } from '../api/get-limits.ts';
import { hasLimits, type LimitIssue } from '../limit-rules.ts';

/**
 * The limits that apply to this form's orders, shown before submit: the range per order and what is left
 * today (amount and count). Nothing when the merchant has none.
 */
export function LimitsItem({
  kind,
  limits,
  format,
  unit,
}: {
  kind: LimitKind;
  limits: MerchantLimits | undefined;
  /** An amount of the limits' currency as the form shows money, and the currency's unit. */
  format: (value: string) => string;
  unit: string;
}) {
  const { t } = useTranslation('limits');
  if (!hasLimits(limits)) return null;
  const lines: string[] = [];
  if (limits.per_order_min !== null || limits.per_order_max !== null) {
    lines.push(
      limits.per_order_min !== null && limits.per_order_max !== null
        ? t('perOrderRange', { min: format(limits.per_order_min), max: format(limits.per_order_max), unit })
        : limits.per_order_min !== null
          ? t('perOrderMin', { min: format(limits.per_order_min), unit })
          : t('perOrderMax', { max: format(limits.per_order_max!), unit }),
    );
  }
  if (limits.remaining_amount !== null)
    lines.push(
      t('remainingAmount', {
        left: format(limits.remaining_amount),
        limit: format(limits.daily_amount ?? '0'),
        unit,
      }),
    );
  if (limits.remaining_count !== null)
    lines.push(t(`remainingCount.${kind}`, { left: limits.remaining_count, limit: limits.daily_count }));
  if (limits.payee_daily_count !== null)
    lines.push(t('payeeDailyCount', { count: limits.payee_daily_count }));
  return (
    <Form.Item label={t('label')}>
      <span data-testid={`${kind}-limits`}>
        {lines.map((line) => (
          <Typography.Text key={line} type="secondary" style={{ display: 'block' }}>
            {line}
          </Typography.Text>
        ))}
      </span>
    </Form.Item>
  );
}

/** The text of a limit the typed amount would pass, as the form shows it under the amount. */
export function useLimitIssueText(kind: LimitKind) {
  const { t } = useTranslation('limits');
  return (issue: LimitIssue, format: (value: string) => string, unit: string) =>
    t(`issue.${issue.limit}`, {
      value: issue.limit === 'daily_count' ? issue.value : format(issue.value),
      unit,
      kind: t(`kinds.${kind}`),
    });
}
