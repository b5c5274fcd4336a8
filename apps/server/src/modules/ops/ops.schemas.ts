import { z } from 'zod';
import { AmountSchema, CurrencySchema, ROLES } from '@paydesk/shared';

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
  amount: PositiveAmountSchema,
  reason: ReasonSchema,
  /** Shown to the merchant on the fund flow entry; the reason stays internal. */
  note: z.string().trim().max(200).optional(),
});
export type MoveFundsBody = z.infer<typeof MoveFundsBodySchema>;

export const UnfreezeBodySchema = z.object({
  merchant: MerchantNoSchema,
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

export const CreateOperatorTokenBodySchema = z.object({ name: OperatorNameSchema, reason: ReasonSchema });
export type CreateOperatorTokenBody = z.infer<typeof CreateOperatorTokenBodySchema>;

export const RevokeOperatorTokenBodySchema = z.object({
  id: z.coerce
    .number({ error: 'The id must be the number of a token.' })
    .int('The id must be the number of a token.')
    .positive('The id must be the number of a token.'),
  reason: ReasonSchema,
});
export type RevokeOperatorTokenBody = z.infer<typeof RevokeOperatorTokenBodySchema>;

export const VerifyQuerySchema = z.object({ merchant: MerchantNoSchema.optional() });

export const IdempotencyKeyHeaderSchema = z
  .string()
  .regex(/^[A-Za-z0-9:_-]{8,100}$/, 'The Idempotency-Key header must be 8 to 100 letters, digits, - _ or :.');
