import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { SECURITY_EVENT_TYPES } from '@paydesk/shared/security/security.schemas.ts';
import { quotedList } from './sql-lists.ts';
import { merchants, users } from './merchants.ts';
import { idColumn } from './columns.ts';

/** Sessions live in the database so any number of server processes share them. */
export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's token: a copy of this table cannot be replayed as cookies. */
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** The user who passed the password step and still owes the two-factor challenge. */
    pendingUserId: bigint('pending_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    passwordConfirmedAt: timestamp('password_confirmed_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_pending_user_idx')
      .on(t.pendingUserId)
      .where(sql`${t.pendingUserId} is not null`),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Fixed-window counters shared by every server process (login and challenge throttles). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  // Housekeeping deletes spent windows by their end.
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

export const securityEvents = pgTable(
  'security_events',
  {
    id: idColumn(),
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** login, login_failed, two_factor_enabled, ... (modules/security). */
    type: text('type').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('security_events_merchant_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('security_events_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    check('security_events_type_valid', sql`${t.type} in (${quotedList(SECURITY_EVENT_TYPES)})`),
  ],
);
