import { z } from 'zod';
import { RESOLUTION_ACTIONS, STATEMENT_FORMATS } from '@paydesk/shared/channels/reconciliation.schemas.ts';
import { ChannelCodeSchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { ModeSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import { MerchantNoSchema, ReasonSchema } from '../ops/index.ts';

// The operator API's shapes for statements and reconciliation (DESIGN 13), shared with the command line.

const DateSchema = z
  .string({ error: 'The date field is required.' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be a day such as 2026-11-27.')
  .refine((day) => !Number.isNaN(new Date(`${day}T00:00:00Z`).getTime()), 'The date must be a real day.');

const ChannelDay = {
  merchant: MerchantNoSchema,
  mode: ModeSchema.default('live'),
  channel: ChannelCodeSchema,
  date: DateSchema,
};

/** The file travels as base64 in the JSON body (the command line reads it from disk). */
export const ImportStatementBodySchema = z.object({
  ...ChannelDay,
  format: z.enum(STATEMENT_FORMATS, { error: `The format must be one of: ${STATEMENT_FORMATS.join(', ')}.` }),
  file_name: z.string().trim().min(1).max(255),
  content: z
    .string()
    .min(1, 'The file is empty.')
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'The content must be base64.'),
  reason: ReasonSchema,
});
export type ImportStatementBody = z.infer<typeof ImportStatementBodySchema>;

export const ReconciliationQuerySchema = z.object(ChannelDay);

export const ResolveBodySchema = z
  .object({
    ...ChannelDay,
    payment: z.coerce.number().int().positive('The payment must be the id reconcile:show lists.').optional(),
    trade_no: z
      .string()
      .trim()
      .regex(/^C\d{8,40}$/, 'The trade_no must be a collection number (C...).')
      .optional(),
    action: z.enum(RESOLUTION_ACTIONS, {
      error: `The action must be one of: ${RESOLUTION_ACTIONS.join(', ')}.`,
    }),
    amount: z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'The amount must be a decimal such as 10.00 or -10.00.')
      .optional(),
    reason: ReasonSchema,
  })
  .refine((b) => b.payment !== undefined || b.trade_no !== undefined, {
    message: 'Name the payment (payment) or the order (trade_no) to resolve.',
    path: ['payment'],
  })
  .refine((b) => (b.action === 'ledger_adjustment') === (b.amount !== undefined), {
    message: 'An amount goes with a ledger adjustment, and only with one.',
    path: ['amount'],
  });
export type ResolveBody = z.infer<typeof ResolveBodySchema>;

export const CloseDayBodySchema = z.object({ ...ChannelDay, reason: ReasonSchema });
