import { z } from 'zod';
import { ChannelCodeSchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { ModeSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import { MerchantNoSchema, ReasonSchema } from '../ops/index.ts';

// The operator API's shapes for payouts paid by batch files (DESIGN 13), shared with the command line.

const PayoutChannel = {
  merchant: MerchantNoSchema,
  mode: ModeSchema.default('live'),
  channel: ChannelCodeSchema,
};

const TradeNoSchema = z
  .string({ error: 'The trade_no field is required.' })
  .trim()
  .regex(/^P\d{8,40}$/, 'The trade_no must be a payout number (P...).');

export const BatchExportBodySchema = z.object({
  ...PayoutChannel,
  /** The file of an earlier batch again (nothing moves). */
  batch: z
    .string()
    .trim()
    .regex(/^B\d{17}$/, 'The batch must be a batch number such as B20261127093000123.')
    .optional(),
  reason: ReasonSchema,
});

export const BatchImportBodySchema = z.object({
  ...PayoutChannel,
  file_name: z.string().trim().min(1).max(255),
  content: z
    .string()
    .min(1, 'The file is empty.')
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'The content must be base64.'),
  reason: ReasonSchema,
});

export const MarkPaidBodySchema = z.object({
  ...PayoutChannel,
  trade_no: TradeNoSchema,
  bank_reference: z
    .string({ error: 'The bank_reference field is required.' })
    .trim()
    .min(1, 'The bank_reference field is required.')
    .max(64, 'The bank reference is at most 64 characters.'),
  reason: ReasonSchema,
});

export const MarkFailedBodySchema = z.object({
  ...PayoutChannel,
  trade_no: TradeNoSchema,
  /** Why it failed, as the merchant reads it. */
  failure: z
    .string({ error: 'The failure field is required.' })
    .trim()
    .min(3, 'Say why it failed, as the merchant will read it (at least 3 characters).')
    .max(200),
  reason: ReasonSchema,
});
