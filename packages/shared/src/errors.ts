import { z } from 'zod';

/** Every error answer: a message a person can act on, the request id, and, for validation, the fields. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Machine-readable codes for errors a client reacts to beyond showing the message. */
export const ERROR_CODES = {
  twoFactorRequired: 'two_factor_required',
  insufficientFunds: 'insufficient_funds',
  paymentLocked: 'payment_locked',
  invalidTransition: 'invalid_transition',
} as const;

export const MESSAGES = {
  unauthenticated: 'Unauthenticated.',
  csrfMismatch: 'CSRF token mismatch.',
  badCredentials: 'These credentials do not match our records.',
  passwordConfirmationRequired: 'Password confirmation required.',
  featureNotEnabled: 'This feature is not enabled yet',
  forbidden: 'This action is unauthorized.',
  notFound: 'Not found.',
} as const;
