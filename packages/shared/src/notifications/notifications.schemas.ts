import { z } from 'zod';

/** The languages a user's mail is written in (the console's own: apps/web/src/i18n/language.ts). */
export const LOCALES = ['en', 'zh-cn', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];
export const LocaleSchema = z.enum(LOCALES, { error: 'The locale must be one of en, zh-cn, vi.' });

/** PUT /api/user/locale: the console's language, recorded at sign-in and at each switch (DESIGN 16). */
export const UpdateLocaleBodySchema = z.object({ locale: LocaleSchema });
export type UpdateLocaleBody = z.infer<typeof UpdateLocaleBodySchema>;
export const UpdateLocaleResponseSchema = z.object({ data: z.object({ locale: LocaleSchema }) });

/** What the merchant's ROOT users are told of (DESIGN 16): a bell row and an email each. */
export const NOTIFICATION_TYPES = [
  'access_key_regenerated',
  'notify_url_changed',
  'ip_whitelist_changed',
  'payment_password_reset',
  'two_factor_disabled',
  'user_invited',
  'user_disabled',
  'root_sign_in_new_ip',
  'payout_pending_approval',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES);

export const NotificationSchema = z.object({
  id: z.number(),
  type: NotificationTypeSchema,
  /** The type's parameters (who, what, when), as the email showed them. */
  params: z.record(z.string(), z.string()),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** GET /api/merchant/notifications: newest first; `before` is the id of the last row of the previous page. */
export const NotificationListQuerySchema = z.object({
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

export const NotificationListResponseSchema = z.object({
  data: z.array(NotificationSchema),
  meta: z.object({
    /** The user's unread notifications in all (the bell's badge: 99+ past 99). */
    unread: z.number(),
    /** `before` for the next page; null on the last one. */
    next_before: z.number().nullable(),
  }),
});
export type NotificationListResponse = z.infer<typeof NotificationListResponseSchema>;

/** POST /api/merchant/notifications/read: these ids, or all of the user's. */
export const MarkNotificationsReadBodySchema = z.union([
  z.object({ ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkNotificationsReadBody = z.infer<typeof MarkNotificationsReadBodySchema>;

export const MarkNotificationsReadResponseSchema = z.object({ data: z.object({ unread: z.number() }) });
