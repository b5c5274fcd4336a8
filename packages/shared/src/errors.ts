import { z } from 'zod';

export * from './error-codes.ts';

/** Every error answer: a message a person can act on, the request id, and, for validation, the fields. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  /** One of ERROR_CODES (a string, so a newer server's code does not break an older client). */
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const MESSAGES = {
  unauthenticated: 'Unauthenticated.',
  csrfMismatch: 'CSRF token mismatch.',
  badCredentials: 'These credentials do not match our records.',
  passwordConfirmationRequired: 'Password confirmation required.',
  featureNotEnabled: 'This feature is not enabled yet',
  forbidden: 'This action is unauthorized.',
  notFound: 'Not found.',
} as const;
