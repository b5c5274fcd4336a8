import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { ROLES } from '@paydesk/shared';
import { idColumn } from './columns.ts';
import { merchants, users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';

/**
 * An invitation to a merchant's team (DESIGN 16): its link's one-time token is stored only as its
 * SHA-256, so a copy of this table opens no account. Accepting it (once, before expires_at) creates the user.
 */
export const userInvitations = pgTable(
  'user_invitations',
  {
    id: idColumn(),
    /** The live row: users belong to it. */
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    /** Lower-cased. */
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: bigint('invited_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedUserId: bigint('accepted_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** A newer invitation of the same email to the same merchant replaced this one. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('user_invitations_merchant_idx').on(t.merchantId, t.createdAt),
    index('user_invitations_invited_by_idx').on(t.invitedBy),
    index('user_invitations_accepted_user_idx').on(t.acceptedUserId),
    check('user_invitations_role_valid', sql`${t.role} in (${quotedList(ROLES)})`),
  ],
);
