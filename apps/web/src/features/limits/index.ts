// What the limits feature offers other features (eslint: paydesk/feature-door): the limits that apply to
// a kind of order (DESIGN 14), their line on a form and the check before submit.
export { limitsQueryKey, type MerchantLimits, useLimits } from './api/get-limits.ts';
export { LimitsItem, useLimitIssueText } from './components/limits-item.tsx';
export { hasLimits, type LimitIssue, limitIssueOf } from './limit-rules.ts';
