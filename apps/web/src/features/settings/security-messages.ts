import type { TFunction } from 'i18next';
import { SECURITY_MESSAGES } from '@paydesk/shared/security/security.schemas.ts';
import type { HttpError } from '../../lib/http.ts';

// The server speaks English (Laravel's wording); these are the messages of this feature a user can meet,
// in the user's language. Anything else is shown as the HTTP client translated it.
const KNOWN: [prefix: string, key: string][] = [
  [SECURITY_MESSAGES.passwordIncorrect, 'server.passwordIncorrect'],
  [SECURITY_MESSAGES.currentPasswordMismatch, 'server.currentPasswordMismatch'],
  [SECURITY_MESSAGES.invalidCode, 'server.invalidCode'],
  [SECURITY_MESSAGES.codeFormat, 'validation.codeLength'],
  [SECURITY_MESSAGES.confirmMismatch, 'validation.confirmMismatch'],
  [SECURITY_MESSAGES.emailTaken, 'server.emailTaken'],
  [SECURITY_MESSAGES.invalidTimeZone, 'server.invalidTimeZone'],
  [SECURITY_MESSAGES.paymentPasswordIncorrect, 'server.paymentPasswordIncorrect'],
  [SECURITY_MESSAGES.paymentPasswordSameAsLogin, 'server.paymentPasswordSameAsLogin'],
  ['The email field must be a valid email address.', 'validation.emailInvalid'],
  ['The password field must be at least 8 characters.', 'validation.passwordMin'],
  ['The payment password field must be at least 6 characters.', 'validation.paymentPasswordMin'],
];

export function translateSecurityMessage(message: string, t: TFunction<'security'>): string {
  const known = KNOWN.find(([prefix]) => message.startsWith(prefix));
  if (!known) return message;
  return t(known[1], { count: known[1] === 'validation.passwordMin' ? 8 : 6 });
}

/** The message to put under a field: its own 422 error, a throttle, or the error's message. */
export function securityFieldError(error: HttpError, field: string, t: TFunction<'security'>): string {
  if (error.status === 429) return t('server.throttled', { count: error.retryAfterSeconds ?? 60 });
  const own = error.body?.errors?.[field]?.[0];
  return translateSecurityMessage(own ?? error.body?.message ?? error.message, t);
}

/** Field errors of a 422 answer, for form.setFields. */
export function securityFieldErrors(
  error: HttpError,
  t: TFunction<'security'>,
): { name: string; errors: string[] }[] {
  return Object.entries(error.body?.errors ?? {}).map(([name, messages]) => ({
    name,
    errors: [translateSecurityMessage(messages[0] ?? '', t)],
  }));
}
