import { z } from 'zod';
import { ChannelAttemptSchema } from '../channels/attempts.schemas.ts';
import { AmountSchema, CurrencySchema } from '../money.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';
import {
  ChannelCodeSchema,
  CallbackEventSchema,
  CountrySchema,
  NotifyUrlSchema,
  OutTradeNoSchema,
} from '../collections/collections.schemas.ts';
import { timeRangeListQuery } from '../funds/funds.schemas.ts';
import { StepUpFieldsSchema } from '../security/security.schemas.ts';

// Send money (DESIGN sections 3, 4 and 6): payouts from the console's form or the gateway. Money leaves the
// available balance into a hold the moment a payout is created; success captures it, failure, rejection
// and cancellation release it, and a refund received gives the amount back (the fee is kept).

export const PAYOUT_STATUSES = [
  // Waiting for a second user's approval (DESIGN 16): amount + fee held, not yet sent to its channel.
  'pending_approval',
  'pending',
  'processing',
  'success',
  'failed',
  'cancelled',
  'rejected',
  'refund_received',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PayoutStatusSchema = z.enum(PAYOUT_STATUSES, {
  error: `The status must be one of: ${PAYOUT_STATUSES.join(', ')}.`,
});

/** The life cycle: every other transition is refused with 409 and changes nothing. */
export const PAYOUT_TRANSITIONS: Record<PayoutStatus, readonly PayoutStatus[]> = {
  pending_approval: ['pending', 'rejected'],
  pending: ['processing', 'cancelled', 'rejected'],
  processing: ['success', 'failed'],
  success: ['refund_received'],
  failed: [],
  cancelled: [],
  rejected: [],
  refund_received: [],
};
export const canTransition = (from: PayoutStatus, to: PayoutStatus): boolean =>
  PAYOUT_TRANSITIONS[from].includes(to);

export const ACCOUNT_TYPES = ['individual', 'company'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const AccountTypeSchema = z.enum(ACCOUNT_TYPES, {
  error: 'The account type must be individual or company.',
});

const optionalText = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

/**
 * The bank details of a payout, as the gateway and the console's form send them. Which of them are
 * required and how each is checked depends on the channel's country (bank-rules.ts: CN bank list + bank
 * and branch name; IN IFSC; BR CPF for individuals or CNPJ for companies + bank; VN NAPAS bank).
 */
export const PayeeFieldsSchema = z.object({
  account_type: AccountTypeSchema,
  bank_code: optionalText(32),
  bank_name: optionalText(100),
  branch_name: optionalText(100),
  ifsc: optionalText(11),
  cpf_cnpj: optionalText(18),
  payee_name: z
    .string({ error: 'The payee field is required.' })
    .trim()
    .min(1, 'The payee field is required.')
    .max(100),
  account_no: z
    .string({ error: 'The receiving account field is required.' })
    .trim()
    .min(1, 'The receiving account field is required.')
    .max(34),
});
export type PayeeFields = z.infer<typeof PayeeFieldsSchema>;

// POST /gateway/v1/payouts (with an optional Idempotency-Key header)
export const CreatePayoutBodySchema = PayeeFieldsSchema.extend({
  out_trade_no: OutTradeNoSchema,
  amount: AmountSchema,
  channel: z.preprocess(emptyToUndefined, ChannelCodeSchema.optional()),
  notify_url: NotifyUrlSchema,
  note: optionalText(255),
});
export type CreatePayoutBody = z.infer<typeof CreatePayoutBodySchema>;

// POST /api/merchant/payouts: the console's form, with both factors and the near-duplicate confirmation.
export const ConsolePayoutBodySchema = PayeeFieldsSchema.extend(StepUpFieldsSchema.shape).extend({
  channel: ChannelCodeSchema,
  amount: AmountSchema,
  note: optionalText(255),
  /** Sent after the "a payout to this account with this amount was sent in the last 10 minutes" prompt. */
  confirm_duplicate: z.boolean().optional(),
});
export type ConsolePayoutBody = z.infer<typeof ConsolePayoutBodySchema>;

/** A payout as the gateway answers it and as callbacks carry it (DESIGN section 6). */
export const GatewayPayoutSchema = z.object({
  trade_no: z.string(),
  out_trade_no: z.string(),
  status: PayoutStatusSchema,
  amount: z.string(),
  fee: z.string(),
  currency: CurrencySchema,
  channel: z.string(),
  payee_name: z.string(),
  /** Masked: all but the last 4 characters hidden. */
  account_no: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  /** false for an object of test mode (made with a test_ key, DESIGN 12). */
  livemode: z.boolean(),
});
export type GatewayPayout = z.infer<typeof GatewayPayoutSchema>;

// ---- GET /api/merchant/payout-channels: the open payout channels and what their form asks.

export const BankSchema = z.object({ code: z.string(), name: z.string() });
export type Bank = z.infer<typeof BankSchema>;

export const PayoutChannelSchema = z.object({
  code: z.string(),
  country: CountrySchema,
  currency: CurrencySchema,
  /** Percent, exact: "1.5". */
  fee_rate: z.string(),
  fixed_fee: z.string(),
  min_amount: z.string(),
  max_amount: z.string(),
  /** The banks to choose from (empty for IN: the bank follows from the IFSC). */
  banks: z.array(BankSchema),
});
export type PayoutChannel = z.infer<typeof PayoutChannelSchema>;
export const PayoutChannelsResponseSchema = z.object({
  data: z.object({ channels: z.array(PayoutChannelSchema), available: z.string(), currency: CurrencySchema }),
});

// ---- GET /api/merchant/payouts

export const PayoutListQuerySchema = timeRangeListQuery({
  trade_no: optionalText(64),
  out_trade_no: optionalText(64),
  status: z.preprocess(emptyToUndefined, PayoutStatusSchema.optional()),
});
export type PayoutListQuery = z.infer<typeof PayoutListQuerySchema>;

// The console's payout: its mode is the page's (X-Mode), so it carries no livemode.
export const PayoutSchema = GatewayPayoutSchema.omit({ livemode: true }).extend({
  account_type: AccountTypeSchema,
  bank_code: z.string().nullable(),
  bank_name: z.string().nullable(),
  branch_name: z.string().nullable(),
  ifsc: z.string().nullable(),
  /** Masked like the account. */
  cpf_cnpj: z.string().nullable(),
  note: z.string().nullable(),
  /** The channel's own number for the payout once it took it (the spec's outNo, "associated order number"). */
  channel_ref: z.string().nullable(),
  /** console or gateway */
  source: z.enum(['console', 'gateway']),
  /** The console user who made it (null for a gateway payout): its maker cannot approve it (DESIGN 16). */
  created_by_user_id: z.number().nullable(),
});
export type Payout = z.infer<typeof PayoutSchema>;

export const PayoutSumsSchema = z.object({ amount: z.string(), count: z.number(), fee: z.string() });
export const PayoutListResponseSchema = z.object({
  data: z.array(PayoutSchema),
  meta: CursorListMetaSchema.extend({ sums: PayoutSumsSchema }),
});
export type PayoutListResponse = z.infer<typeof PayoutListResponseSchema>;

const UserRefSchema = z.object({ id: z.number(), name: z.string() });

/** A payout's timeline: created, then each status it reached after pending, then its callback delivered. */
export const PAYOUT_TIMELINE_STEPS = [
  'created',
  ...PAYOUT_STATUSES.filter(
    (status): status is Exclude<PayoutStatus, 'pending' | 'pending_approval'> =>
      status !== 'pending' && status !== 'pending_approval',
  ),
  // Approved by a second user (DESIGN 16): it went on to its channel then.
  'approved',
  'notified',
] as const;

// GET /api/merchant/payouts/{trade_no}; POST /api/merchant/payouts answers the same shape (201)
export const PayoutDetailSchema = PayoutSchema.extend({
  timeline: z.array(z.object({ step: z.enum(PAYOUT_TIMELINE_STEPS), at: z.string() })),
  callbacks: z.array(CallbackEventSchema),
  /** Its attempts on channels (DESIGN 13), oldest first. */
  attempts: z.array(ChannelAttemptSchema),
  /** Who made it in the console (null: the gateway), and who approved or rejected it (DESIGN 16). */
  created_by: UserRefSchema.nullable(),
  reviewed_by: UserRefSchema.nullable(),
  reviewed_at: z.string().nullable(),
});
export type PayoutDetail = z.infer<typeof PayoutDetailSchema>;
export const PayoutDetailResponseSchema = z.object({ data: PayoutDetailSchema });

/** 409 of POST /api/merchant/payouts without confirm_duplicate: the recent payout it resembles. */
export const DUPLICATE_WINDOW_MINUTES = 10;
