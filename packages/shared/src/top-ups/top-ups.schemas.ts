import { z } from 'zod';
import { AmountSchema, CurrencySchema, RateSchema } from '../money.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';
import { timeRangeListQuery } from '../funds/funds.schemas.ts';

// Top-ups (DESIGN sections 3, 4, 5 and 9): a merchant sends USDT to the platform's deposit address and
// uploads the transfer's screenshot; an operator checks it and approves with the USDT received and the
// rate (credited = received x rate, rounded down to the merchant currency's minor unit) or rejects it.

export const TOP_UP_STATUSES = ['pending_review', 'approved', 'rejected'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
export const TopUpStatusSchema = z.enum(TOP_UP_STATUSES, {
  error: `The status must be one of: ${TOP_UP_STATUSES.join(', ')}.`,
});

export const TOP_UP_NETWORKS = ['TRC20', 'ERC20'] as const;
export type TopUpNetwork = (typeof TOP_UP_NETWORKS)[number];
export const TopUpNetworkSchema = z.enum(TOP_UP_NETWORKS, {
  error: 'The network must be TRC20 or ERC20.',
});

/** The screenshot rules (DESIGN 9), checked in the browser too. */
export const SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg'] as const;
export type ScreenshotType = (typeof SCREENSHOT_TYPES)[number];
/** Read from the image header before anything is decoded: a larger image is refused (422). */
export const SCREENSHOT_MAX_PIXELS = 40_000_000;

const optionalText = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

// ---- GET /api/merchant/recharge-options

export const TopUpOptionsSchema = z.object({
  currency: z.literal('USDT'),
  networks: z.array(z.object({ network: TopUpNetworkSchema, address: z.string() })),
  /** The indicative rate of one USDT in the merchant's currency (the operator credits at the rate of the day). */
  rate: z.string(),
  merchant_currency: CurrencySchema,
});
export type TopUpOptions = z.infer<typeof TopUpOptionsSchema>;
export const TopUpOptionsResponseSchema = z.object({ data: TopUpOptionsSchema });

// ---- POST /api/merchant/recharges (multipart: amount, currency, network, screenshot)

export const CreateTopUpFieldsSchema = z.object({
  amount: AmountSchema.refine((v) => /[1-9]/.test(v), 'The amount must be greater than zero.'),
  currency: z.literal('USDT', { error: 'The currency must be USDT.' }),
  network: TopUpNetworkSchema,
});
export type CreateTopUpFields = z.infer<typeof CreateTopUpFieldsSchema>;

// ---- GET /api/merchant/recharges

export const TopUpListQuerySchema = timeRangeListQuery({
  recharge_no: optionalText(64),
  status: z.preprocess(emptyToUndefined, TopUpStatusSchema.optional()),
  network: z.preprocess(emptyToUndefined, TopUpNetworkSchema.optional()),
});
export type TopUpListQuery = z.infer<typeof TopUpListQuerySchema>;

export const TopUpSchema = z.object({
  recharge_no: z.string(),
  status: TopUpStatusSchema,
  /** What was sent: USDT on this network to this address. */
  currency: z.literal('USDT'),
  network: TopUpNetworkSchema,
  address: z.string(),
  amount: z.string(),
  /** Set when approved: the USDT the operator saw arrive, the rate, and what was credited. */
  received_amount: z.string().nullable(),
  rate: z.string().nullable(),
  credited_amount: z.string().nullable(),
  credited_currency: CurrencySchema,
  credited_usd: z.string().nullable(),
  /** Why it was rejected (or the operator's note on an approval). */
  reason: z.string().nullable(),
  screenshot_type: z.enum(SCREENSHOT_TYPES),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type TopUp = z.infer<typeof TopUpSchema>;

export const TopUpSumsSchema = z.object({ amount: z.string(), count: z.number(), credited: z.string() });
export const TopUpListResponseSchema = z.object({
  data: z.array(TopUpSchema),
  meta: CursorListMetaSchema.extend({ sums: TopUpSumsSchema }),
});
export type TopUpListResponse = z.infer<typeof TopUpListResponseSchema>;
export const TopUpResponseSchema = z.object({ data: TopUpSchema });

// ---- Operator API (/ops/v1/topups)

export const OpsTopUpListQuerySchema = z.object({
  merchant: optionalText(32),
  status: z.preprocess(emptyToUndefined, TopUpStatusSchema.optional()),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type OpsTopUpListQuery = z.infer<typeof OpsTopUpListQuerySchema>;

const ReasonSchema = z.string().trim().min(1, 'The reason field is required.').max(500);
const TopUpNoSchema = z
  .string()
  .trim()
  .regex(/^R[0-9]{8,40}$/, 'Not a top-up number (R...).');

export const ApproveTopUpBodySchema = z.object({
  no: TopUpNoSchema,
  /** The USDT that arrived on chain (may differ from what the merchant typed). */
  received: AmountSchema.refine((v) => /[1-9]/.test(v), 'The received amount must be greater than zero.'),
  rate: RateSchema,
  /** One USDT in USD (default: the configured rate, 1). */
  usd_rate: RateSchema.optional(),
  reason: ReasonSchema,
});
export type ApproveTopUpBody = z.infer<typeof ApproveTopUpBodySchema>;

export const RejectTopUpBodySchema = z.object({ no: TopUpNoSchema, reason: ReasonSchema });
export type RejectTopUpBody = z.infer<typeof RejectTopUpBodySchema>;

export const OpsTopUpSchema = TopUpSchema.extend({
  merchant: z.string(),
  usd_rate: z.string().nullable(),
  screenshot_bytes: z.number(),
  reviewed_by: z.string().nullable(),
});
export type OpsTopUp = z.infer<typeof OpsTopUpSchema>;
