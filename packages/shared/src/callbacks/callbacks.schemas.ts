import { z } from 'zod';
import { CALLBACK_EVENT_TYPES, CallbackEventSchema } from '../collections/collections.schemas.ts';
import { LocalTimeSchema, normalizeLocalTime, timeRangeListQuery } from '../funds/funds.schemas.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';

// Webhook deliveries (DESIGN 6): the merchant's callbacks that were not delivered (given up, or still
// failing and waiting for their next retry), listed for 30 days and sent again one by one or in bulk.

/** How long an undelivered event stays listed (and can be sent again in bulk). */
export const UNDELIVERED_LISTED_DAYS = 30;
/** At most this many events are queued again by one bulk resend; the answer says when more match. */
export const BULK_RESEND_LIMIT = 1000;

/** An event type to filter by: the shared list of types, so a new type is a filter at once. */
const EventTypeFilter = z.preprocess(
  emptyToUndefined,
  z
    .enum(CALLBACK_EVENT_TYPES, { error: `The type must be one of: ${CALLBACK_EVENT_TYPES.join(', ')}.` })
    .optional(),
);

// GET /api/merchant/callbacks: created_at in [start_time, end_time] (the user's zone), within the 30 days.
export const UndeliveredCallbackListQuerySchema = timeRangeListQuery({ type: EventTypeFilter });
export type UndeliveredCallbackListQuery = z.infer<typeof UndeliveredCallbackListQuerySchema>;

export const UndeliveredCallbackSchema = z.object({
  /** The event id: the webhook-id of every attempt. */
  id: z.string(),
  type: z.enum(CALLBACK_EVENT_TYPES),
  /** What the event is of (collection, payout) and that order's trade_no. */
  ref_type: z.string(),
  trade_no: z.string().nullable(),
  url: z.string(),
  /** failed: given up after the last retry; pending: still failing, next_attempt_at is its next retry. */
  status: z.enum(['pending', 'failed']),
  attempts: z.number(),
  /** The last attempt: the receiver's HTTP status (null when none came), why it failed, its answer. */
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  last_response_excerpt: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type UndeliveredCallback = z.infer<typeof UndeliveredCallbackSchema>;

export const UndeliveredCallbackListResponseSchema = z.object({
  data: z.array(UndeliveredCallbackSchema),
  meta: CursorListMetaSchema,
});
export type UndeliveredCallbackListResponse = z.infer<typeof UndeliveredCallbackListResponseSchema>;

// POST /api/merchant/callbacks/resend: every matching undelivered event goes out again (same webhook-id).
export const BulkResendCallbacksBodySchema = z
  .object({
    type: EventTypeFilter,
    /** Created from and to, inclusive, in the user's time zone (a date alone is the whole day). */
    from: LocalTimeSchema,
    to: LocalTimeSchema,
  })
  .refine((b) => normalizeLocalTime(b.from, 'start') <= normalizeLocalTime(b.to, 'end'), {
    message: 'The start time must be before the end time.',
    path: ['to'],
  });
export type BulkResendCallbacksBody = z.infer<typeof BulkResendCallbacksBodySchema>;

export const BulkResendCallbacksResponseSchema = z.object({
  data: z.object({
    /** Events queued for a new attempt by this call (one already queued is not queued twice). */
    resent: z.number(),
    /** More matched than one call queues (BULK_RESEND_LIMIT): send again for the rest. */
    has_more: z.boolean(),
  }),
});
export type BulkResendCallbacksResponse = z.infer<typeof BulkResendCallbacksResponseSchema>;

// POST /api/merchant/callbacks/{event_id}/resend -> the event, queued again, with its attempts.
export const ResendOneCallbackResponseSchema = z.object({ data: CallbackEventSchema });
