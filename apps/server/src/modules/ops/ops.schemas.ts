import { z } from 'zod';
import { AmountSchema, CurrencySchema, ROLES } from '@paydesk/shared';
import { DEFAULT_PROVIDER, PROVIDERS, SANDBOX_MODES } from '@paydesk/shared/channels/providers.ts';
import { ModeSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import {
  OPERATOR_SCOPES,
  OPERATOR_TOKEN_DEFAULT_DAYS,
  OPERATOR_TOKEN_MAX_DAYS,
} from '@paydesk/shared/ops/operator-scopes.ts';
import {
  ChannelCodeSchema,
  ChannelKindSchema,
  CountrySchema,
  SettlementCycleSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import {
  TxHashSchema,
  WithdrawalNoSchema,
  WithdrawalStatusSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';

// The operator API's requests (DESIGN section 10). Every change carries the reason it is made.

const required = (field: string) => ({ error: `The ${field} field is required.` });

export const ReasonSchema = z
  .string(required('reason'))
  .trim()
  .min(3, 'The reason must be at least 3 characters.')
  .max(500, 'The reason may not be greater than 500 characters.');

export const MerchantNoSchema = z
  .string(required('merchant'))
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'The merchant must be a merchant number such as M100001.');

/** --mode of a command whose object has one (DESIGN 12): live unless told. */
const ModeOptionSchema = ModeSchema.default('live');

const PositiveAmountSchema = z
  .string(required('amount'))
  .pipe(AmountSchema)
  .refine((value) => /[1-9]/.test(value), 'The amount must be greater than 0.');

export const CreateMerchantBodySchema = z.object({
  no: MerchantNoSchema.optional(),
  name: z.string(required('name')).trim().min(1, 'The name field is required.').max(100),
  currency: z.string(required('currency')).trim().toUpperCase().pipe(CurrencySchema),
  reason: ReasonSchema,
});
export type CreateMerchantBody = z.infer<typeof CreateMerchantBodySchema>;

export const CreateUserBodySchema = z.object({
  merchant: MerchantNoSchema,
  email: z
    .string(required('email'))
    .trim()
    .max(255)
    .pipe(z.email('The email must be a valid email address.')),
  name: z.string(required('name')).trim().min(1, 'The name field is required.').max(255),
  role: z.enum(ROLES, { error: `The role must be one of: ${ROLES.join(', ')}.` }),
  /** Optional; when absent a password is generated and answered once. */
  password: z.string().min(8, 'The password must be at least 8 characters.').max(200).optional(),
  reason: ReasonSchema,
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const MoveFundsBodySchema = z.object({
  merchant: MerchantNoSchema,
  /** Test mode's balance (DESIGN 12: an operator adds test funds with --mode test); live unless told. */
  mode: ModeOptionSchema,
  amount: PositiveAmountSchema,
  reason: ReasonSchema,
  /** Shown to the merchant on the fund flow entry; the reason stays internal. */
  note: z.string().trim().max(200).optional(),
});
export type MoveFundsBody = z.infer<typeof MoveFundsBodySchema>;

export const UnfreezeBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  freeze: z.coerce
    .number({ error: 'The freeze must be the number of a freeze.' })
    .int('The freeze must be the number of a freeze.')
    .positive('The freeze must be the number of a freeze.'),
  reason: ReasonSchema,
  note: z.string().trim().max(200).optional(),
});
export type UnfreezeBody = z.infer<typeof UnfreezeBodySchema>;

const OperatorNameSchema = z
  .string(required('name'))
  .trim()
  .regex(/^[\p{L}\p{N} ._@-]{1,64}$/u, 'The name may use letters, digits, spaces and . _ @ - (at most 64).');

export { OPERATOR_SCOPES, type OperatorScope } from '@paydesk/shared/ops/operator-scopes.ts';

const scopesMessage = `The scopes must be one or more of: ${OPERATOR_SCOPES.join(', ')}.`;

/** ["read", "review"], or "read,review" as the command line's --scopes gives it; each once, in table order. */
const OperatorScopesSchema = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((scope) => scope.trim()) : value),
    z
      .array(z.enum(OPERATOR_SCOPES, { error: scopesMessage }), { error: scopesMessage })
      .min(1, scopesMessage),
  )
  .transform((scopes) => OPERATOR_SCOPES.filter((scope) => scopes.includes(scope)));

const HOUR_MS = 3_600_000;
const expiresInMessage = `The expiry must be a whole number of days or hours such as 30d or 12h, from 1h to ${OPERATOR_TOKEN_MAX_DAYS}d.`;

/** "30d" or "12h" in milliseconds. */
export const expiresInMs = (value: string) =>
  Number(value.slice(0, -1)) * (value.endsWith('d') ? 24 : 1) * HOUR_MS;

/** How long a new token lives: "30d" or "12h", at least an hour and at most a year. */
const ExpiresInSchema = z
  .string({ error: expiresInMessage })
  .trim()
  .regex(/^\d{1,5}[dh]$/, expiresInMessage)
  .refine(
    (value) => expiresInMs(value) >= HOUR_MS && expiresInMs(value) <= OPERATOR_TOKEN_MAX_DAYS * 24 * HOUR_MS,
    expiresInMessage,
  );

export const CreateOperatorTokenBodySchema = z.object({
  name: OperatorNameSchema,
  scopes: OperatorScopesSchema,
  expires_in: ExpiresInSchema.default(`${OPERATOR_TOKEN_DEFAULT_DAYS}d`),
  reason: ReasonSchema,
});
export type CreateOperatorTokenBody = z.infer<typeof CreateOperatorTokenBodySchema>;

export const RevokeOperatorTokenBodySchema = z.object({
  id: z.coerce
    .number({ error: 'The id must be the number of a token.' })
    .int('The id must be the number of a token.')
    .positive('The id must be the number of a token.'),
  reason: ReasonSchema,
});
export type RevokeOperatorTokenBody = z.infer<typeof RevokeOperatorTokenBodySchema>;

/** The books of one merchant or all, of one mode or (without --mode) each mode. */
export const VerifyQuerySchema = z.object({
  merchant: MerchantNoSchema.optional(),
  mode: ModeSchema.optional(),
});

export const TrialBalanceQuerySchema = z.object({ mode: ModeSchema.optional() });

/** merchant:list: the merchants' rows of one mode, with that mode's balances (live unless told). */
export const ListMerchantsQuerySchema = z.object({ mode: ModeOptionSchema });

export const IdempotencyKeyHeaderSchema = z
  .string()
  .regex(/^[A-Za-z0-9:_-]{8,100}$/, 'The Idempotency-Key header must be 8 to 100 letters, digits, - _ or :.');

// ---- Channels (DESIGN section 4)

const PercentSchema = (field: string) =>
  z
    .string(required(field))
    .trim()
    .regex(/^\d{1,3}(\.\d{1,4})?$/, `The ${field} must be a percent with at most 4 decimals, e.g. 1.5.`)
    .refine((value) => Number(value) <= 100, `The ${field} must be at most 100.`);

/** A JSON object, given as one (the API) or as its text (the command line's --settings '{...}'). */
const JsonObjectSchema = (field: string) =>
  z.preprocess(
    (value, context) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: `The ${field} must be a JSON object.` });
        return z.NEVER;
      }
    },
    z.record(z.string(), z.unknown(), { error: `The ${field} must be a JSON object.` }),
  );

export const OpenChannelBodySchema = z
  .object({
    merchant: MerchantNoSchema,
    /** The adapter that talks to the channel (DESIGN 13). */
    provider: z
      .enum(PROVIDERS, { error: `The provider must be one of: ${PROVIDERS.join(', ')}.` })
      .default(DEFAULT_PROVIDER),
    /** The provider's settings (its adapter checks them): the receiving account, a batch file's layout. */
    settings: JsonObjectSchema('settings').default({}),
    /** The provider's secrets; a notification secret the server makes when none is given. */
    secrets: JsonObjectSchema('secrets').optional(),
    /** The sandbox serves test mode only: a sandbox channel opens with --mode test. */
    mode: ModeOptionSchema,
    code: ChannelCodeSchema,
    kind: ChannelKindSchema,
    /** Defaults to the merchant's currency's country. */
    country: z.string().trim().toUpperCase().pipe(CountrySchema).optional(),
    fee_rate: PercentSchema('fee_rate'),
    fixed_fee: z.string().pipe(AmountSchema).default('0'),
    min_amount: PositiveAmountSchema,
    max_amount: PositiveAmountSchema,
    /** Collections: T0 or T1 (default T1). */
    cycle: z.string().trim().toUpperCase().pipe(SettlementCycleSchema).optional(),
    expiry_minutes: z.coerce.number().int().min(1).max(1440).default(30),
    /** Sandbox: manual (hosted page, ops) or auto (finishes by itself with the success rate and delay). */
    sandbox_mode: z.enum(SANDBOX_MODES).default(SANDBOX_MODES[0]),
    success_rate: PercentSchema('success_rate').default('90'),
    delay_seconds: z.coerce.number().int().min(0).max(86400).default(5),
    reason: ReasonSchema,
  })
  .refine((b) => b.kind === 'collection' || b.cycle === undefined, {
    message: 'A settlement cycle is for collection channels only.',
    path: ['cycle'],
  });
export type OpenChannelBody = z.infer<typeof OpenChannelBodySchema>;

export const CloseChannelBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  code: ChannelCodeSchema,
  kind: ChannelKindSchema,
  reason: ReasonSchema,
});
export type CloseChannelBody = z.infer<typeof CloseChannelBodySchema>;

export const ListChannelsQuerySchema = z.object({
  merchant: MerchantNoSchema.optional(),
  mode: ModeOptionSchema,
});

export const RunSettlementBodySchema = z.object({ reason: ReasonSchema });

export const SandboxCompleteBodySchema = z.object({
  trade_no: z
    .string(required('trade_no'))
    .trim()
    .regex(/^[CP]\d{8,40}$/, 'The trade_no must be a collection (C...) or payout (P...) number.'),
  // The service refuses a result of the other kind (a payout never ends "paid").
  result: z.enum(['paid', 'failed', 'success', 'refunded'], {
    error: 'The result must be paid or failed (collections), success, failed or refunded (payouts).',
  }),
  reason: ReasonSchema,
});
export type SandboxCompleteBody = z.infer<typeof SandboxCompleteBodySchema>;

/** One demo collection through the signed gateway (demo:traffic sends these at a rate). */
export const DemoCollectionBodySchema = z.object({
  merchant: MerchantNoSchema,
  /** Demo traffic runs on the sandbox, which serves test mode only: test unless told. */
  mode: ModeSchema.default('test'),
  channel: ChannelCodeSchema.default('sandbox-auto'),
  /** It signs with the merchant's secret and may move its funds: recorded like every change. */
  reason: ReasonSchema,
});
export type DemoCollectionBody = z.infer<typeof DemoCollectionBodySchema>;

export const DemoPayoutBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeSchema.default('test'),
  channel: ChannelCodeSchema.default('sandbox-pay'),
  reason: ReasonSchema,
});
export type DemoPayoutBody = z.infer<typeof DemoPayoutBodySchema>;

export const DemoTrafficOptionsSchema = DemoCollectionBodySchema.extend({
  reason: ReasonSchema.default('demo traffic'),
  /** Percent of the orders that are payouts (through the payout channel sandbox-pay). */
  payouts: z.coerce.number().int().min(0).max(100).default(30),
  rate: z.coerce
    .number()
    .min(0.1, 'The rate is at least 0.1 per second.')
    .max(200, 'The rate is at most 200 per second.')
    .default(2),
  duration: z.coerce.number().int().min(1).max(3600, 'The duration is at most 3600 seconds.').default(60),
});

// ---- Withdrawals (DESIGN sections 4 and 10)

export const WithdrawalDecisionBodySchema = z.object({
  no: WithdrawalNoSchema,
  /** Recorded with the operator's name; a rejection's reason is what the merchant reads. */
  reason: ReasonSchema,
});
export type WithdrawalDecisionBody = z.infer<typeof WithdrawalDecisionBodySchema>;

export const PayWithdrawalBodySchema = WithdrawalDecisionBodySchema.extend({ tx_hash: TxHashSchema });
export type PayWithdrawalBody = z.infer<typeof PayWithdrawalBodySchema>;

export const RejectWithdrawalBodySchema = WithdrawalDecisionBodySchema.extend({
  /**
   * The state being rejected: under review by default; an approved one only when named, so a rejection
   * sent while someone approves it answers 409 instead of undoing their approval unseen.
   */
  from: z
    .enum(['pending_review', 'approved'], { error: 'The from must be pending_review or approved.' })
    .default('pending_review'),
});
export type RejectWithdrawalBody = z.infer<typeof RejectWithdrawalBodySchema>;

export const ListWithdrawalsQuerySchema = z.object({
  merchant: MerchantNoSchema.optional(),
  status: WithdrawalStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type ListWithdrawalsQuery = z.infer<typeof ListWithdrawalsQuerySchema>;

// ---- Refunds refunded by hand (DESIGN 14): a bank transfer's payer is paid back by the platform's staff.

export const OpsRefundListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type OpsRefundListQuery = z.infer<typeof OpsRefundListQuerySchema>;

export const CompleteRefundBodySchema = z.object({
  refund_no: z
    .string(required('refund_no'))
    .trim()
    .regex(/^R\d{8,40}$/, 'The refund_no must be a refund number (R...).'),
  result: z.enum(['succeeded', 'failed'], { error: 'The result must be succeeded or failed.' }),
  /** Why; for a failed refund also what the merchant reads as its failure reason. */
  reason: ReasonSchema,
});
export type CompleteRefundBody = z.infer<typeof CompleteRefundBodySchema>;
