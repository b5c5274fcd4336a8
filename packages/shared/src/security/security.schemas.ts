import { z } from 'zod';
import { ListMetaSchema } from '../pagination.ts';

// Account security: the Fortify contract (DESIGN section 5) plus the payment password and step-up check.
// Server messages follow Laravel's wording; the console shows the text of each error's code (ERROR_CODES).

export const PASSWORD_MIN = 8;
export const PAYMENT_PASSWORD_MIN = 6;
export const TEXT_MAX = 255;
export const RECOVERY_CODE_COUNT = 8;
/** How long a password confirmation lasts, in seconds (Fortify's auth.password_timeout as DESIGN sets it). */
export const PASSWORD_CONFIRMATION_SECONDS = 10800;
export const PAYMENT_LOCK_FAILURES = 5;
export const PAYMENT_LOCK_MINUTES = 30;
export const TOTP_CODE_PATTERN = /^\d{6}$/;

export const SECURITY_MESSAGES = {
  passwordIncorrect: 'The provided password was incorrect.',
  currentPasswordMismatch: 'The provided password does not match your current password.',
  confirmMismatch: 'Confirm password does not match password',
  invalidCode: 'The provided two factor authentication code was invalid.',
  invalidRecoveryCode: 'The provided two factor recovery code was invalid.',
  codeFormat: 'The code must be 6 digits.',
  twoFactorNotEnabled: 'Two factor authentication has not been enabled.',
  secretNotShownAgain: 'Two-factor authentication is already confirmed; its secret is not shown again.',
  paymentPasswordIncorrect: 'The payment password is incorrect.',
  paymentPasswordNotSet: 'Set a payment password first.',
  paymentPasswordSameAsLogin: 'The payment password must be different from your login password.',
  emailTaken: 'The email has already been taken.',
  invalidTimeZone:
    'The timezone field must be a valid time zone (a UTC offset such as +08:00, or a name such as Asia/Shanghai).',
} as const;

const label = (field: string) => field.replace(/_/g, ' ');
const required = (field: string) => `The ${label(field)} field is required.`;

/** A required string field with Laravel's messages ("" counts as missing, as Laravel converts it to null). */
export const requiredString = (field: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? required(field)
          : `The ${label(field)} field must be a string.`,
    })
    .min(1, required(field));

const optionalString = (field: string) =>
  z.string({ error: `The ${label(field)} field must be a string.` }).optional();

const maxLength = (field: string, max: number) =>
  `The ${label(field)} field must not be greater than ${max} characters.`;
const minLength = (field: string, min: number) =>
  `The ${label(field)} field must be at least ${min} characters.`;

// The HTML living standard's email rule, as browsers and Laravel's default "email" check apply it.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
export const isEmail = (value: string): boolean => EMAIL.test(value);

export const ConfirmPasswordBodySchema = z.object({ password: requiredString('password') });
export type ConfirmPasswordBody = z.infer<typeof ConfirmPasswordBodySchema>;

export const ConfirmedPasswordStatusSchema = z.object({ confirmed: z.boolean() });

/** A code typed as digits may arrive as a JSON number; leading zeros are restored. */
const codeField = (field: string) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value).padStart(6, '0') : value),
    requiredString(field),
  );

export const TwoFactorCodeBodySchema = z.object({ code: codeField('code') });
export type TwoFactorCodeBody = z.infer<typeof TwoFactorCodeBodySchema>;

// Laravel turns "" into null: a form that posts both fields with one left empty sends only the other.
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const TwoFactorChallengeBodySchema = z.object({
  code: z.preprocess(blankToUndefined, codeField('code').optional()),
  recovery_code: z.preprocess(blankToUndefined, optionalString('recovery_code')),
});
export type TwoFactorChallengeBody = z.infer<typeof TwoFactorChallengeBodySchema>;

/**
 * Turning a confirmed authenticator off or replacing it, or regenerating its recovery codes (DESIGN
 * section 5): a current code of it, or a recovery code, as the challenge takes them; one of the two is
 * required. Reading the recovery codes takes the code alone (TwoFactorCodeBodySchema).
 */
export const TwoFactorProofBodySchema = TwoFactorChallengeBodySchema.refine(
  (body) => body.code !== undefined || body.recovery_code !== undefined,
  { path: ['code'], message: required('code') },
);
export type TwoFactorProofBody = z.infer<typeof TwoFactorProofBodySchema>;

export const TwoFactorQrCodeSchema = z.object({ svg: z.string(), url: z.string() });
export const TwoFactorSecretKeySchema = z.object({ secretKey: z.string() });
export const RecoveryCodesSchema = z.array(z.string());

/** GET /api/merchant/two-factor-secret-key: the authenticator to bind, in one answer. */
export const MerchantTwoFactorSecretSchema = z.object({
  data: z.object({ secretKey: z.string(), svg: z.string(), url: z.string(), confirmed: z.boolean() }),
});
export const MerchantTwoFactorConfirmedSchema = z.object({
  data: z.object({ two_factor_enabled: z.literal(true), recovery_codes: RecoveryCodesSchema }),
});

export const ProfileInformationBodySchema = z.object({
  name: requiredString('name').max(TEXT_MAX, maxLength('name', TEXT_MAX)),
  email: requiredString('email')
    .max(TEXT_MAX, maxLength('email', TEXT_MAX))
    .refine(
      (value) => value === '' || isEmail(value.trim()),
      'The email field must be a valid email address.',
    ),
  /** UTC offset or IANA name; null or "" clears it (then the browser's X-Timezone applies). */
  timezone: z
    .string({ error: 'The timezone field must be a string.' })
    .max(64, maxLength('timezone', 64))
    .nullable()
    .optional(),
});
export type ProfileInformationBody = z.infer<typeof ProfileInformationBodySchema>;

export const UpdatePasswordBodySchema = z
  .object({
    current_password: requiredString('current_password'),
    password: requiredString('password')
      .min(PASSWORD_MIN, minLength('password', PASSWORD_MIN))
      .max(TEXT_MAX, maxLength('password', TEXT_MAX)),
    password_confirmation: optionalString('password_confirmation'),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password'],
    message: SECURITY_MESSAGES.confirmMismatch,
    // Reported alongside the other fields' errors, as Laravel collects every failed rule.
    when: (payload) => typeof (payload.value as { password?: unknown })?.password === 'string',
  });
export type UpdatePasswordBody = z.infer<typeof UpdatePasswordBodySchema>;

/** The two fields every money-moving form sends (DESIGN section 5): payment password and authenticator code. */
export const StepUpFieldsSchema = z.object({
  payment_password: requiredString('payment_password').max(TEXT_MAX, maxLength('payment_password', TEXT_MAX)),
  code: codeField('code').pipe(z.string().regex(TOTP_CODE_PATTERN, SECURITY_MESSAGES.codeFormat)),
});
export type StepUpFields = z.infer<typeof StepUpFieldsSchema>;

/**
 * PUT /api/merchant/payment-password. The first time: the login `password` and a `code`;
 * afterwards: the `current_payment_password` and a `code`.
 */
// The new payment password, its confirmation and the authenticator code: shared by setting, changing and
// resetting it.
const newPaymentPasswordFields = {
  payment_password: requiredString('payment_password')
    .min(PAYMENT_PASSWORD_MIN, minLength('payment_password', PAYMENT_PASSWORD_MIN))
    .max(TEXT_MAX, maxLength('payment_password', TEXT_MAX)),
  payment_password_confirmation: optionalString('payment_password_confirmation'),
  code: codeField('code').pipe(z.string().regex(TOTP_CODE_PATTERN, SECURITY_MESSAGES.codeFormat)),
};
const confirmationMatches = (body: { payment_password: string; payment_password_confirmation?: string }) =>
  body.payment_password === body.payment_password_confirmation;
const confirmationMismatch = {
  path: ['payment_password'],
  message: SECURITY_MESSAGES.confirmMismatch,
  when: (payload: { value: unknown }) =>
    typeof (payload.value as { payment_password?: unknown })?.payment_password === 'string',
};

export const PaymentPasswordBodySchema = z
  .object({
    password: optionalString('password'),
    current_payment_password: optionalString('current_payment_password'),
    ...newPaymentPasswordFields,
  })
  .refine(confirmationMatches, confirmationMismatch);
export type PaymentPasswordBody = z.infer<typeof PaymentPasswordBodySchema>;

/**
 * POST /api/merchant/payment-password/reset: a forgotten payment password, replaced with the login
 * password and an authenticator code (the two factors of the account itself).
 */
export const ResetPaymentPasswordBodySchema = z
  .object({
    password: requiredString('password').max(TEXT_MAX, maxLength('password', TEXT_MAX)),
    ...newPaymentPasswordFields,
  })
  .refine(confirmationMatches, confirmationMismatch);
export type ResetPaymentPasswordBody = z.infer<typeof ResetPaymentPasswordBodySchema>;

/** GET /api/user/meta: the account's security state, for the console's settings pages. */
export const UserMetaSchema = z.object({
  timezone: z.string().nullable(),
  two_factor_enabled: z.boolean(),
  /** A secret was issued (enable) but no code has confirmed it yet. */
  two_factor_pending: z.boolean(),
  two_factor_confirmed_at: z.string().nullable(),
  payment_password_set: z.boolean(),
  payment_locked_until: z.string().nullable(),
  password_confirmed: z.boolean(),
  password_confirmed_until: z.string().nullable(),
});
export type UserMeta = z.infer<typeof UserMetaSchema>;
export const UserMetaResponseSchema = z.object({ data: UserMetaSchema });

export const SessionItemSchema = z.object({
  /** An opaque handle, not the session's secret. */
  id: z.string(),
  /** "Chrome 126", or null when the user agent says nothing we recognise. */
  browser: z.string().nullable(),
  platform: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_active_at: z.string(),
  is_current: z.boolean(),
});
export type SessionItem = z.infer<typeof SessionItemSchema>;
export const SessionListResponseSchema = z.object({ data: z.array(SessionItemSchema) });
export const OtherSessionsEndedSchema = z.object({ data: z.object({ ended: z.number() }) });

export const SECURITY_EVENT_TYPES = [
  'login',
  'login_failed',
  'logout',
  'two_factor_challenge_failed',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_codes_viewed',
  'recovery_codes_regenerated',
  'recovery_code_used',
  'password_changed',
  'payment_password_set',
  'payment_password_changed',
  'payment_password_reset',
  'payment_password_failed',
  'payment_password_locked',
  'profile_updated',
  'other_sessions_ended',
  'access_key_revealed',
  'access_key_regenerated',
  'notify_url_changed',
  'ip_whitelist_changed',
  // Withdrawals: the merchant's request and each operator decision.
  'withdrawal_requested',
  'withdrawal_approved',
  'withdrawal_paid',
  'withdrawal_rejected',
  // An operator's decision on a top-up (DESIGN 10).
  'topup_approved',
  'topup_rejected',
  // Payout approval (DESIGN 16): the thresholds changed, a waiting payout approved or rejected.
  'payout_approval_changed',
  'payout_approved',
  'payout_rejected',
  // Settings > Team (DESIGN 16): a ROOT's changes to a colleague, and the colleague's accepted invitation.
  'user_invited',
  'user_role_changed',
  'user_disabled',
  'user_enabled',
  'user_two_factor_reset',
  'invitation_accepted',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export const SecurityEventsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(SECURITY_EVENT_TYPES).optional(),
});
export type SecurityEventsQuery = z.infer<typeof SecurityEventsQuerySchema>;

export const SecurityEventItemSchema = z.object({
  id: z.number(),
  type: z.string(),
  user: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  ip: z.string().nullable(),
  browser: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type SecurityEventItem = z.infer<typeof SecurityEventItemSchema>;
export const SecurityEventListResponseSchema = z.object({
  data: z.array(SecurityEventItemSchema),
  meta: ListMetaSchema,
});

export const PaymentPasswordResponseSchema = z.object({
  data: z.object({ payment_password_set: z.literal(true) }),
});
export const StepUpVerifiedSchema = z.object({ data: z.object({ verified: z.literal(true) }) });
