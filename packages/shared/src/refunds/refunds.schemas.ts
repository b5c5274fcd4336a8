import { z } from 'zod';
import { CallbackEventSchema } from '../collections/collections.schemas.ts';
import { AmountSchema, CurrencySchema } from '../money.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';
import { timeRangeListQuery } from '../funds/funds.schemas.ts';
import { StepUpFieldsSchema } from '../security/security.schemas.ts';

// Refunds of paid collections (DESIGN 14): full or partial, several per order while their sum stays within
// the order's amount. The amount leaves the merchant's available balance into a hold when the refund is
// created, leaves for good when the channel confirms it, and comes back if it fails; the order's fee is kept.

export const REFUND_STATUSES = ['processing', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const RefundStatusSchema = z.enum(REFUND_STATUSES, {
  error: `The status must be one of: ${REFUND_STATUSES.join(', ')}.`,
});

/** The life cycle: every other transition is refused with 409 and changes nothing. */
export const REFUND_TRANSITIONS: Record<RefundStatus, readonly RefundStatus[]> = {
  processing: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
};

/** The merchant's own refund number: unique per merchant and mode, like out_trade_no. */
export const OutRefundNoSchema = z
  .string({ error: 'The merchant refund number is required.' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'The merchant refund number is 1 to 64 letters, digits, _ . : or -.');

const optionalReason = z.preprocess(emptyToUndefined, z.string().trim().max(255).optional());

// POST /gateway/v1/collections/{trade_no}/refunds (with an optional Idempotency-Key header)
export const CreateRefundBodySchema = z.object({
  out_refund_no: OutRefundNoSchema,
  amount: AmountSchema,
  reason: optionalReason,
});
export type CreateRefundBody = z.infer<typeof CreateRefundBodySchema>;

// POST /api/merchant/collections/{trade_no}/refunds: the console's Refund action, with both factors.
// The console numbers the refund itself when the user leaves out_refund_no empty.
export const ConsoleRefundBodySchema = StepUpFieldsSchema.extend({
  amount: AmountSchema,
  reason: optionalReason,
  out_refund_no: z.preprocess(emptyToUndefined, OutRefundNoSchema.optional()),
});
export type ConsoleRefundBody = z.infer<typeof ConsoleRefundBodySchema>;

/** A refund as the gateway answers it and as callbacks carry it (DESIGN 14). */
export const GatewayRefundSchema = z.object({
  refund_no: z.string(),
  out_refund_no: z.string(),
  trade_no: z.string(),
  status: RefundStatusSchema,
  amount: z.string(),
  currency: CurrencySchema,
  reason: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  /** false for an object of test mode (made with a test_ key, DESIGN 12). */
  livemode: z.boolean(),
});
export type GatewayRefund = z.infer<typeof GatewayRefundSchema>;
export const GatewayRefundResponseSchema = z.object({ data: GatewayRefundSchema });

// GET /gateway/v1/refunds?out_refund_no=
export const RefundLookupQuerySchema = z.object({ out_refund_no: OutRefundNoSchema });

// ---- GET /api/merchant/refunds (Receive money > Refunds)

export const RefundListQuerySchema = timeRangeListQuery({
  refund_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  out_refund_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  trade_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
  status: z.preprocess(emptyToUndefined, RefundStatusSchema.optional()),
  channel: z.preprocess(emptyToUndefined, z.string().trim().max(48).optional()),
});
export type RefundListQuery = z.infer<typeof RefundListQuerySchema>;

// The console's refund: its mode is the page's (X-Mode), so it carries no livemode.
export const RefundSchema = GatewayRefundSchema.omit({ livemode: true }).extend({
  /** The collection's own merchant number, so the list reads without opening the order. */
  out_trade_no: z.string(),
  channel: z.string(),
  /** console or gateway */
  source: z.enum(['console', 'gateway']),
});
export type Refund = z.infer<typeof RefundSchema>;

export const RefundSumsSchema = z.object({ amount: z.string(), count: z.number() });
export const RefundListResponseSchema = z.object({
  data: z.array(RefundSchema),
  meta: CursorListMetaSchema.extend({ sums: RefundSumsSchema }),
});
export type RefundListResponse = z.infer<typeof RefundListResponseSchema>;

// GET /api/merchant/refunds/{refund_no}; POST /api/merchant/collections/{trade_no}/refunds answers it (201)
export const RefundDetailSchema = RefundSchema.extend({
  timeline: z.array(
    z.object({ step: z.enum(['created', 'succeeded', 'failed', 'notified']), at: z.string() }),
  ),
  callbacks: z.array(CallbackEventSchema),
});
export type RefundDetail = z.infer<typeof RefundDetailSchema>;
export const RefundDetailResponseSchema = z.object({ data: RefundDetailSchema });
