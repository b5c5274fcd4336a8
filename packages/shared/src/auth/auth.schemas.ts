import { z } from 'zod';
import { ModeSchema } from '../modes/modes.schemas.ts';
import { CurrencySchema } from '../money.ts';
import { LocaleSchema } from '../notifications/notifications.schemas.ts';

export const LoginBodySchema = z.object({
  email: z.string({ error: 'The email field is required.' }).trim().min(1, 'The email field is required.'),
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.'),
  remember: z.union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0'])]).optional(),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginResponseSchema = z.object({ two_factor: z.boolean() });

export const CurrentUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()).min(1),
  perms: z.array(z.string()),
  two_factor_enabled: z.boolean(),
  timezone: z.string().nullable(),
  /** The language of the user's mail, as the console last recorded it (PUT /api/user/locale). */
  locale: LocaleSchema.optional(),
  merchant: z.object({
    no: z.string(),
    name: z.string(),
    currency: CurrencySchema,
    /**
     * The mode the console opens in unless the user chose one (DESIGN 12): test while the merchant has no
     * open live channel. The server always sends it; optional so that older fixtures still read.
     */
    default_mode: ModeSchema.optional(),
  }),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const CurrentUserResponseSchema = z.object({ data: CurrentUserSchema });
