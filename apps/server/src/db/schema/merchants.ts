import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CURRENCIES, MERCHANT_STATUSES, ROLES } from '@paydesk/shared';
import { MODES } from '@paydesk/shared/modes/modes.schemas.ts';
import { LOCALES } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { quotedList } from './sql-lists.ts';

/**
 * A merchant in one mode (DESIGN 12). Each merchant is two rows: its live row and its test twin
 * (`live_merchant_id` names the live row), so every object table's merchant_id, and every index leading
 * with it, keeps the two modes apart by construction. What belongs to the company (number, name, currency,
 * status, time zone, whitelist) is the live row's and copied to the twin when written; users, sessions and
 * their security belong to the live row only.
 */
export const merchants = pgTable(
  'merchants',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The same on both rows of a merchant: the gateway and the console show it in both modes. */
    no: text('no').notNull(),
    mode: text('mode').notNull().default('live'),
    /** The twin's live row; null on a live row. */
    liveMerchantId: bigint('live_merchant_id', { mode: 'number' })
      .unique()
      .references((): AnyPgColumn => merchants.id),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('active'),
    /** IANA name: "today", settlement cycles and daily reports of the merchant are in this zone. */
    timezone: text('timezone').notNull().default('Asia/Shanghai'),
    /** The gateway's IP whitelist: IPv4, IPv6 and CIDR blocks, normalised; empty refuses every call. */
    ipWhitelist: text('ip_whitelist')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('merchants_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('merchants_status_valid', sql`${t.status} in (${quotedList(MERCHANT_STATUSES)})`),
    check('merchants_mode_valid', sql`${t.mode} in (${quotedList(MODES)})`),
    // A live row has no live row of its own; a twin always has one.
    check('merchants_twin_of_live', sql`(${t.mode} = 'live') = (${t.liveMerchantId} is null)`),
    unique('merchants_no_mode_unique').on(t.no, t.mode),
  ],
);

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull(),
    /** Permissions granted one by one, beyond those of the roles. */
    perms: text('perms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** UTC offset ("+07:00") or IANA name; null means "use the browser's X-Timezone". */
    timezone: text('timezone'),
    /** The language of the user's mail (DESIGN 16): the console records its own at sign-in and each switch. */
    locale: text('locale').notNull().default('en'),
    /** Encrypted with APP_KEY (lib/crypto.ts). */
    twoFactorSecret: text('two_factor_secret'),
    /** Encrypted JSON array of the recovery codes. */
    twoFactorRecoveryCodes: text('two_factor_recovery_codes'),
    twoFactorConfirmedAt: timestamp('two_factor_confirmed_at', { withTimezone: true }),
    /** The last TOTP time step accepted, so a code cannot be replayed inside its window. */
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    paymentPasswordHash: text('payment_password_hash'),
    paymentPasswordFailures: integer('payment_password_failures').notNull().default(0),
    paymentLockedUntil: timestamp('payment_locked_until', { withTimezone: true }),
    /** Set by a ROOT in Settings > Team (DESIGN 16): the user cannot sign in, and their sessions ended. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_merchant_idx').on(t.merchantId),
    // Roles is never empty (DESIGN 5) and holds only the role table's names.
    check(
      'users_roles_valid',
      sql`cardinality(${t.roles}) > 0 and ${t.roles} <@ array[${quotedList(ROLES)}]::text[]`,
    ),
    check('users_locale_valid', sql`${t.locale} in (${quotedList(LOCALES)})`),
  ],
);

/** The merchant's gateway API credentials (DESIGN section 6); the secret is encrypted with APP_KEY. */
export const accessKeys = pgTable('access_keys', {
  merchantId: bigint('merchant_id', { mode: 'number' })
    .primaryKey()
    .references(() => merchants.id),
  accessKey: text('access_key').notNull().unique(),
  secretEncrypted: text('secret_encrypted').notNull(),
  /** whsec_<base64>, encrypted with APP_KEY: signs our callbacks (Standard Webhooks). */
  webhookSecretEncrypted: text('webhook_secret_encrypted').notNull().default(''),
  /** The default callback address of the merchant's orders. */
  notifyUrl: text('notify_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
});
