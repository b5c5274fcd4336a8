import { z } from 'zod';
import { ChannelAttemptSchema } from '../channels/attempts.schemas.ts';
import { AmountSchema, CurrencySchema } from '../money.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';
import { timeRangeListQuery } from '../funds/funds.schemas.ts';

// Receive money (DESIGN sections 4 to 6): channels, collection (pay-in) orders, their callbacks and the
// settlement batches that move paid orders into the merchant's balance.

// ---- Channels (opened per merchant by an operator)

export const CHANNEL_KINDS = ['collection', 'payout'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const ChannelKindSchema = z.enum(CHANNEL_KINDS);

export const COUNTRIES = ['CN', 'IN', 'BR', 'VN'] as const;
export type Country = (typeof COUNTRIES)[number];
export const CountrySchema = z.enum(COUNTRIES);
/** A channel's country is its merchant's currency's. */
export const CURRENCY_OF_COUNTRY = { CN: 'CNY', IN: 'INR', BR: 'BRL', VN: 'VND' } as const;

export const SETTLEMENT_CYCLES = ['T0', 'T1'] as const;
export type SettlementCycle = (typeof SETTLEMENT_CYCLES)[number];
export const SettlementCycleSchema = z.enum(SETTLEMENT_CYCLES);

export const CHANNEL_STATUSES = ['open', 'closed'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** Channel codes are what merchants send as `channel` and what the ledger's clearing accounts are keyed by. */
export const ChannelCodeSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,47}$/, 'A channel code is 1 to 48 lowercase letters, digits, _ . or -.');

/** The fee of an amount: round_half_up(amount x rate_ppm / 1,000,000) + fixed (DESIGN section 3). */
export function feeOf(amountMinor: bigint, ratePpm: number, fixedMinor: bigint): bigint {
  return (amountMinor * BigInt(ratePpm) + 500_000n) / 1_000_000n + fixedMinor;
}

// ---- Collection orders

export const COLLECTION_STATUSES = ['to_be_paid', 'paid', 'closed', 'failed'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];
export const CollectionStatusSchema = z.enum(COLLECTION_STATUSES, {
  error: `The status must be one of: ${COLLECTION_STATUSES.join(', ')}.`,
});

export const SETTLEMENT_STATUSES = ['unsettled', 'pending_settlement', 'settled'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];
export const SettlementStatusSchema = z.enum(SETTLEMENT_STATUSES);

/** The merchant's own order number: unique per merchant. */
export const OutTradeNoSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'The merchant order number is 1 to 64 letters, digits, _ . : or -.');

const OptionalUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .max(500, 'The address is at most 500 characters.')
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'The address must be an http or https URL.')
    .optional(),
);

export const NotifyUrlSchema = OptionalUrl;

// POST /gateway/v1/collections
export const CreateCollectionBodySchema = z.object({
  out_trade_no: OutTradeNoSchema,
  amount: AmountSchema,
  channel: z.preprocess(emptyToUndefined, ChannelCodeSchema.optional()),
  notify_url: OptionalUrl,
  return_url: OptionalUrl,
  payer_name: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
  note: z.preprocess(emptyToUndefined, z.string().trim().max(255).optional()),
});
export type CreateCollectionBody = z.infer<typeof CreateCollectionBodySchema>;

/** A collection as the gateway answers it and as callbacks carry it (DESIGN section 6). */
export const GatewayCollectionSchema = z.object({
  trade_no: z.string(),
  out_trade_no: z.string(),
  status: CollectionStatusSchema,
  amount: z.string(),
  fee: z.string(),
  currency: CurrencySchema,
  channel: z.string(),
  pay_url: z.string(),
  expires_at: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  settlement_status: SettlementStatusSchema,
  /** false for an object of test mode (made with a test_ key, DESIGN 12). */
  livemode: z.boolean(),
});
export type GatewayCollection = z.infer<typeof GatewayCollectionSchema>;

// ---- GET /api/merchant/collections

export const CollectionListQuerySchema = timeRangeListQuery({
  trade_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  out_trade_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  status: z.preprocess(emptyToUndefined, CollectionStatusSchema.optional()),
});
export type CollectionListQuery = z.infer<typeof CollectionListQuerySchema>;

export const CollectionSchema = z.object({
  trade_no: z.string(),
  out_trade_no: z.string(),
  status: CollectionStatusSchema,
  settlement_status: SettlementStatusSchema,
  amount: z.string(),
  fee: z.string(),
  currency: CurrencySchema,
  channel: z.string(),
  payer_name: z.string().nullable(),
  note: z.string().nullable(),
  /** The channel's own number for the order once it reported it (the spec's outNo, "associated order number"). */
  channel_ref: z.string().nullable(),
  /** The settlement batch it was settled in (Settlements page). */
  settlement_no: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  expires_at: z.string(),
  settled_at: z.string().nullable(),
});
export type Collection = z.infer<typeof CollectionSchema>;

export const CollectionSumsSchema = z.object({
  /** Sum of the amounts of the filter's orders, decimal string. */
  amount: z.string(),
  count: z.number(),
  fee: z.string(),
});
export type CollectionSums = z.infer<typeof CollectionSumsSchema>;

export const CollectionListResponseSchema = z.object({
  data: z.array(CollectionSchema),
  meta: CursorListMetaSchema.extend({ sums: CollectionSumsSchema }),
});
export type CollectionListResponse = z.infer<typeof CollectionListResponseSchema>;

// ---- Callbacks (Standard Webhooks), shown in the detail drawer

export const CALLBACK_EVENT_TYPES = [
  'collection.paid',
  'collection.closed',
  'collection.failed',
  'payout.succeeded',
  'payout.failed',
  'payout.refunded',
  'refund.succeeded',
  'refund.failed',
] as const;
export type CallbackEventType = (typeof CALLBACK_EVENT_TYPES)[number];

export const CALLBACK_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number];

export const CallbackAttemptSchema = z.object({
  attempt: z.number(),
  /** The receiver's HTTP status; null when no answer came (timeout, refused, reset). */
  status_code: z.number().nullable(),
  latency_ms: z.number().nullable(),
  /** Why the attempt failed when there was no HTTP answer ("timeout", "connection refused", ...). */
  error: z.string().nullable(),
  /** The first 1 KB of the answer. */
  response_excerpt: z.string().nullable(),
  created_at: z.string(),
});
export type CallbackAttempt = z.infer<typeof CallbackAttemptSchema>;

export const CallbackEventSchema = z.object({
  id: z.string(),
  type: z.enum(CALLBACK_EVENT_TYPES),
  url: z.string(),
  status: z.enum(CALLBACK_STATUSES),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  attempts: z.array(CallbackAttemptSchema),
});
export type CallbackEvent = z.infer<typeof CallbackEventSchema>;

export const TIMELINE_STEPS = ['created', 'paid', 'failed', 'closed', 'settled', 'notified'] as const;
export type TimelineStep = (typeof TIMELINE_STEPS)[number];
export const TimelineItemSchema = z.object({ step: z.enum(TIMELINE_STEPS), at: z.string() });

// GET /api/merchant/collections/{trade_no}
export const CollectionDetailSchema = CollectionSchema.extend({
  timeline: z.array(TimelineItemSchema),
  /** What its refunds took back so far, processing or succeeded (DESIGN 14); refundable = amount - refunded. */
  refunded: z.string(),
  callbacks: z.array(CallbackEventSchema),
  /** Its attempts on channels (DESIGN 13), oldest first. */
  attempts: z.array(ChannelAttemptSchema),
});
export type CollectionDetail = z.infer<typeof CollectionDetailSchema>;
export const CollectionDetailResponseSchema = z.object({ data: CollectionDetailSchema });

// POST /api/merchant/collections/{trade_no}/notify -> the event queued again
export const ResendCallbackResponseSchema = z.object({ data: CallbackEventSchema });

// ---- Settlements

export const SettlementListQuerySchema = timeRangeListQuery({
  settlement_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  channel: z.preprocess(emptyToUndefined, z.string().trim().max(48).optional()),
});
export type SettlementListQuery = z.infer<typeof SettlementListQuerySchema>;

export const SettlementSchema = z.object({
  settlement_no: z.string(),
  channel: z.string(),
  cycle: SettlementCycleSchema,
  /** The merchant-local day whose paid orders the batch settles (YYYY-MM-DD). */
  business_date: z.string(),
  order_count: z.number(),
  gross: z.string(),
  fee: z.string(),
  net: z.string(),
  currency: CurrencySchema,
  settled_at: z.string(),
});
export type Settlement = z.infer<typeof SettlementSchema>;

export const SettlementSumsSchema = z.object({
  gross: z.string(),
  fee: z.string(),
  net: z.string(),
  count: z.number(),
});
export const SettlementListResponseSchema = z.object({
  data: z.array(SettlementSchema),
  meta: CursorListMetaSchema.extend({ sums: SettlementSumsSchema }),
});
export type SettlementListResponse = z.infer<typeof SettlementListResponseSchema>;

// GET /api/merchant/settlements/{settlement_no}
export const SettlementDetailResponseSchema = z.object({
  data: SettlementSchema.extend({ orders: z.array(CollectionSchema) }),
});
export type SettlementDetail = z.infer<typeof SettlementDetailResponseSchema>['data'];

// ---- Dashboard: today's collection card

export const TodayCollectionSchema = z.object({
  /** Paid amount today (the user's time zone), decimal string. */
  paid_amount: z.string(),
  paid_count: z.number(),
  /** Orders created today. */
  order_count: z.number(),
  /** paid / (orders finished or created today), as a decimal string with 4 decimals ("0.9500"); null when no orders. */
  success_rate: z.string().nullable(),
  currency: CurrencySchema,
});
export type TodayCollection = z.infer<typeof TodayCollectionSchema>;
