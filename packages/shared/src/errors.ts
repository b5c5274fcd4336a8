export * from './error-codes.ts';
/** Every error answer's shape, and its reader (without zod: the console's login route loads none). */
export { type ErrorBody, parseErrorBody } from './error-body.ts';

export const MESSAGES = {
  unauthenticated: 'Unauthenticated.',
  csrfMismatch: 'CSRF token mismatch.',
  badCredentials: 'These credentials do not match our records.',
  passwordConfirmationRequired: 'Password confirmation required.',
  featureNotEnabled: 'This feature is not enabled yet',
  forbidden: 'This action is unauthorized.',
  notFound: 'Not found.',
  userDisabled: 'This account has been disabled. Please contact your administrator.',
} as const;
