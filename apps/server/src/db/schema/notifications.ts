import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { merchants, users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';

/**
 * The console bell's rows (DESIGN 16): one per recipient, so each user reads their own. Of the merchant's
 * live row (users are the live row's), whatever mode the change that caused it was made in.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    /** The type's parameters, strings each, as the email showed them. */
    params: jsonb('params').$type<Record<string, string>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // The bell's page (newest first) and its unread count, per user.
    index('notifications_user_idx').on(t.userId, t.id),
    // A merchant's rows (test data deletion, a merchant removed) without a scan.
    index('notifications_merchant_idx').on(t.merchantId),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    check('notifications_type_valid', sql`${t.type} in (${quotedList(NOTIFICATION_TYPES)})`),
  ],
);
