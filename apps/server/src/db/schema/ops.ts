import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { OPERATOR_SCOPES } from '@paydesk/shared/ops/operator-scopes.ts';
import { merchants } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn } from './columns.ts';

/**
 * Operator API tokens: each carries the operator's name, which every change records, the scopes it may
 * act in and when it stops working.
 */
export const operatorTokens = pgTable(
  'operator_tokens',
  {
    id: idColumn(),
    operatorName: text('operator_name').notNull(),
    /** SHA-256 of the token. */
    tokenHash: text('token_hash').notNull().unique(),
    /**
     * The machine's own token (DATA_DIR/ops.token, readable only by the account that runs the server):
     * whoever can read it names themselves with X-Operator, as the command line's --operator does.
     */
    isLocal: boolean('is_local').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** What the token may do (read, review, funds, admin); none implies another. */
    scopes: text('scopes').array().notNull(),
    /** When it stops working; null only for the machine's local token. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'operator_tokens_scopes_valid',
      sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ array[${quotedList(OPERATOR_SCOPES)}]::text[]`,
    ),
    check('operator_tokens_expiry_named', sql`${t.isLocal} or ${t.expiresAt} is not null`),
  ],
);

/** Every change an operator makes: who, when, why, and what. */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: idColumn(),
    operatorName: text('operator_name').notNull(),
    action: text('action').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    reason: text('reason').notNull(),
    /** Sent by the client once per command, so a retried request replays instead of acting twice. */
    idempotencyKey: text('idempotency_key').unique(),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('operator_actions_merchant_idx').on(t.merchantId, t.createdAt.desc())],
);
