import { z } from 'zod';
import { BLOCK_LISTS, LIMIT_KINDS, LIMIT_NAMES } from '@paydesk/shared/limits/limits.schemas.ts';
import { ModeSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import { MerchantNoSchema, ReasonSchema } from '../ops/index.ts';

// The operator API's requests for limits and block lists (DESIGN 10 and 14): limit:set, limit:clear,
// limit:list, block:add, block:remove, block:list. Amounts are decimal strings in the kind's currency (the
// merchant's; USDT for withdrawals); below zero is refused naming the field.

const ModeOptionSchema = ModeSchema.default('live');
const KindSchema = z.enum(LIMIT_KINDS, { error: `The kind must be one of: ${LIMIT_KINDS.join(', ')}.` });
const ListSchema = z.enum(BLOCK_LISTS, { error: `The list must be one of: ${BLOCK_LISTS.join(', ')}.` });

/** A limit's amount as typed: a decimal, possibly negative (refused by the service, naming the field). */
const LimitAmountSchema = (field: string) =>
  z
    .string({ error: `The ${field} must be an amount such as 100.00.` })
    .trim()
    .regex(/^-?\d{1,15}(\.\d{1,6})?$/, `The ${field} must be an amount such as 100.00.`)
    .refine((value) => !value.startsWith('-'), `The ${field} may not be below zero.`)
    .optional();

/** A count as typed (the command line sends text): a whole number, zero or more. */
const LimitCountSchema = (field: string) =>
  z
    .union([z.number(), z.string().trim()], { error: `The ${field} must be a whole number.` })
    .transform((value, context) => {
      const text = String(value);
      if (!/^-?\d{1,9}$/.test(text)) {
        context.addIssue({ code: 'custom', message: `The ${field} must be a whole number.` });
        return z.NEVER;
      }
      const n = Number(text);
      if (n < 0) {
        context.addIssue({ code: 'custom', message: `The ${field} may not be below zero.` });
        return z.NEVER;
      }
      return n;
    })
    .optional();

export const SetLimitsBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  kind: KindSchema,
  per_order_min: LimitAmountSchema('per_order_min'),
  per_order_max: LimitAmountSchema('per_order_max'),
  daily_amount: LimitAmountSchema('daily_amount'),
  daily_count: LimitCountSchema('daily_count'),
  payee_daily_count: LimitCountSchema('payee_daily_count'),
  reason: ReasonSchema,
});
export type SetLimitsBody = z.infer<typeof SetLimitsBodySchema>;

/** limit:clear: the limits named (comma-separated on the command line) or, with none named, all of the kind. */
export const ClearLimitsBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  kind: KindSchema,
  limit: z
    .union([z.array(z.string()), z.string()])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(','))
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    )
    .pipe(z.array(z.enum(LIMIT_NAMES, { error: `Each limit must be one of: ${LIMIT_NAMES.join(', ')}.` })))
    .optional(),
  reason: ReasonSchema,
});
export type ClearLimitsBody = z.infer<typeof ClearLimitsBodySchema>;

export const ListLimitsQuerySchema = z.object({ merchant: MerchantNoSchema, mode: ModeOptionSchema });
export type ListLimitsQuery = z.infer<typeof ListLimitsQuerySchema>;

export const BlockBodySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  list: ListSchema,
  value: z
    .string({ error: 'The value field is required.' })
    .trim()
    .min(1, 'The value field is required.')
    .max(200, 'The value may not be greater than 200 characters.'),
  reason: ReasonSchema,
});
export type BlockBody = z.infer<typeof BlockBodySchema>;

export const ListBlocksQuerySchema = z.object({
  merchant: MerchantNoSchema,
  mode: ModeOptionSchema,
  list: ListSchema.optional(),
});
export type ListBlocksQuery = z.infer<typeof ListBlocksQuerySchema>;
