import type { NotificationType } from '@paydesk/shared/notifications/notifications.schemas.ts';
import type { MailTemplateParams } from '../mail/index.ts';

// The console page where a merchant acts on a notification (apps/web/src/app/routes.ts; paths are the
// spec's, bookmarked by users): a waiting payout opens in Send money history by its number, a key or
// a URL under Access key, the whitelist on its page, the security events on Security (its log), the team's.
const PATHS: { [K in NotificationType]: (params: MailTemplateParams[K]) => string } = {
  access_key_regenerated: () => '/setting/interfaceKey',
  notify_url_changed: () => '/setting/interfaceKey',
  ip_whitelist_changed: () => '/setting/ipWhitelist',
  payment_password_reset: () => '/setting/accountSecurity',
  two_factor_disabled: () => '/setting/accountSecurity',
  root_sign_in_new_ip: () => '/setting/accountSecurity',
  user_invited: () => '/setting/team',
  user_disabled: () => '/setting/team',
  payout_pending_approval: (p) => `/behalfPay/transfers?trade_no=${encodeURIComponent(p.payout_no)}`,
};

/**
 * The notification's link: PUBLIC_URL, else the address of the request that caused it; none without
 * either (a job's change has no console address to give).
 */
export function consoleLinkOf<T extends NotificationType>(
  type: T,
  params: MailTemplateParams[T],
  base: string | undefined,
): string | undefined {
  return base ? `${base}${PATHS[type](params)}` : undefined;
}
