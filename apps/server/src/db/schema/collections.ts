import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  type ExtraConfigColumn,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import { ATTEMPT_ORDER_KINDS, ATTEMPT_OUTCOMES } from '@paydesk/shared/channels/attempts.schemas.ts';
import { DEFAULT_PROVIDER, PROVIDERS, SANDBOX_MODES } from '@paydesk/shared/channels/providers.ts';
import {
  CALLBACK_EVENT_TYPES,
  CALLBACK_STATUSES,
  CHANNEL_KINDS,
  CHANNEL_STATUSES,
  COLLECTION_STATUSES,
  COUNTRIES,
  SETTLEMENT_CYCLES,
  SETTLEMENT_STATUSES,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { journalEntries } from './ledger.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn, merchantIdColumn } from './columns.ts';

// Receive money (DESIGN sections 4 and 6): channels, collection orders, settlement batches, the callback
// outbox and its delivery log, and the gateway's nonces.

export const CHANNEL_PROVIDERS = PROVIDERS;
export { SANDBOX_MODES };

/** The channel a row is about (an order's, a settlement's, an attempt's). */
export const channelIdColumn = () =>
  bigint('channel_id', { mode: 'number' })
    .notNull()
    .references(() => channels.id);

/** A channel opened for one merchant by an operator. */
export const channels = pgTable(
  'channels',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    /** What merchants send as `channel`; the ledger's clearing account is keyed by it. */
    code: text('code').notNull(),
    kind: text('kind').notNull(),
    /** The adapter that talks to the channel (the sandbox is the built-in one). */
    provider: text('provider').notNull().default(DEFAULT_PROVIDER),
    country: text('country').notNull(),
    currency: text('currency').notNull(),
    feeRatePpm: integer('fee_rate_ppm').notNull(),
    fixedFeeMinor: bigint('fixed_fee_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    minAmountMinor: bigint('min_amount_minor', { mode: 'bigint' }).notNull(),
    maxAmountMinor: bigint('max_amount_minor', { mode: 'bigint' }).notNull(),
    /** Collections only: T+0 or T+1 in the merchant's time zone. */
    settlementCycle: text('settlement_cycle'),
    /** Minutes before an unpaid collection closes. */
    expiryMinutes: integer('expiry_minutes').notNull().default(30),
    /** Sandbox: manual (the hosted page's buttons, ops) or auto (finishes by itself, for demo traffic). */
    sandboxMode: text('sandbox_mode').notNull().default(SANDBOX_MODES[0]),
    sandboxSuccessPpm: integer('sandbox_success_ppm').notNull().default(900_000),
    sandboxDelaySeconds: integer('sandbox_delay_seconds').notNull().default(5),
    /**
     * The provider's settings for this channel (its adapter's settingsSchema): the receiving account a
     * payer sees, a batch file's columns, a provider's public key id and base address. No secrets.
     */
    settings: jsonb('settings').notNull().default({}),
    /** The provider's secrets (notification secret, API key secret): JSON, AES-256-GCM under APP_KEY. */
    secrets: text('secrets'),
    status: text('status').notNull().default('open'),
    /**
     * Routing (DESIGN 14): an order goes to the highest-priority open channels of its kind that accept
     * its amount (higher first), shared among them by weight.
     */
    priority: integer('priority').notNull().default(0),
    weight: integer('weight').notNull().default(100),
    /**
     * Health: skipped until then after its failures passed the threshold (routing.ts), then given a small
     * share until it recovers; null while healthy.
     */
    cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
    /** Its health counts the attempts made from then on (its last cool-down's start); null: all. */
    healthSince: timestamp('health_since', { withTimezone: true }),
    openedBy: text('opened_by').notNull(),
    closedBy: text('closed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('channels_merchant_kind_code_key').on(t.merchantId, t.kind, t.code),
    // A provider's notification names the channel by its code alone (POST /channels/{code}/notify).
    index('channels_code_idx').on(t.code),
    check('channels_kind_valid', sql`${t.kind} in (${quotedList(CHANNEL_KINDS)})`),
    check('channels_provider_valid', sql`${t.provider} in (${quotedList(CHANNEL_PROVIDERS)})`),
    check('channels_country_valid', sql`${t.country} in (${quotedList(COUNTRIES)})`),
    check('channels_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('channels_status_valid', sql`${t.status} in (${quotedList(CHANNEL_STATUSES)})`),
    check('channels_sandbox_mode_valid', sql`${t.sandboxMode} in (${quotedList(SANDBOX_MODES)})`),
    check('channels_fee_valid', sql`${t.feeRatePpm} between 0 and 1000000 and ${t.fixedFeeMinor} >= 0`),
    check(
      'channels_limits_valid',
      sql`${t.minAmountMinor} > 0 and ${t.minAmountMinor} <= ${t.maxAmountMinor}`,
    ),
    check(
      'channels_cycle_valid',
      sql`(${t.kind} = 'collection') = (${t.settlementCycle} is not null)
          and (${t.settlementCycle} is null or ${t.settlementCycle} in (${quotedList(SETTLEMENT_CYCLES)}))`,
    ),
    check('channels_expiry_valid', sql`${t.expiryMinutes} between 1 and 1440`),
    check(
      'channels_routing_valid',
      sql`${t.priority} between -1000000 and 1000000 and ${t.weight} between 1 and 1000000`,
    ),
    check(
      'channels_sandbox_valid',
      sql`${t.sandboxSuccessPpm} between 0 and 1000000 and ${t.sandboxDelaySeconds} between 0 and 86400`,
    ),
  ],
);

/**
 * One attempt of an order on a channel (DESIGN 13): written with the order (in its statement), updated
 * when the channel reports how it ended. The order keeps one trade_no; a retry on another channel would
 * be a second row. No secrets: the summaries say what was asked and answered, not how it was signed.
 */
export const channelAttempts = pgTable(
  'channel_attempts',
  {
    id: idColumn(),
    orderKind: text('order_kind').notNull(),
    /** collections.id or payouts.id, by order_kind. */
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    provider: text('provider').notNull(),
    /** The provider's own number for the order on this attempt. */
    channelRef: text('channel_ref'),
    requestSummary: jsonb('request_summary'),
    answerSummary: jsonb('answer_summary'),
    outcome: text('outcome').notNull(),
    /**
     * The attempt failed by the channel's fault as its adapter classifies it (no connection, a timeout, a
     * 5xx: ChannelAdapter.isChannelFault), not a decline (an unknown account, a payer who did not pay):
     * only these count against the channel's health (routing.ts).
     */
    channelFault: boolean('channel_fault').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // An order's attempts, scoped by merchant (the merchant's foreign key too); the channel's key.
    index('channel_attempts_order_idx').on(t.merchantId, t.orderKind, t.orderId, t.id),
    // A channel's latest attempts (its health, routing.ts) and its foreign key.
    index('channel_attempts_channel_idx').on(t.channelId, t.id),
    check('channel_attempts_kind_valid', sql`${t.orderKind} in (${quotedList(ATTEMPT_ORDER_KINDS)})`),
    check('channel_attempts_outcome_valid', sql`${t.outcome} in (${quotedList(ATTEMPT_OUTCOMES)})`),
  ],
);

/** A batch of one channel's paid collections moved into the merchant's balance by one journal entry. */
export const settlements = pgTable(
  'settlements',
  {
    id: idColumn(),
    settlementNo: text('settlement_no').notNull().unique(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    channelCode: text('channel_code').notNull(),
    cycle: text('cycle').notNull(),
    /** The merchant-local day whose paid orders it settles (T+1), or the day it ran (T+0). */
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    orderCount: integer('order_count').notNull(),
    grossMinor: bigint('gross_minor', { mode: 'bigint' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
    netMinor: bigint('net_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    /** pending_settlement until its journal entry is posted, then settled. */
    status: text('status').notNull().default('pending_settlement'),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('settlements_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('settlements_channel_idx').on(t.channelId),
    index('settlements_entry_idx').on(t.entryId),
    index('settlements_pending_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending_settlement'`),
    check('settlements_cycle_valid', sql`${t.cycle} in (${quotedList(SETTLEMENT_CYCLES)})`),
    check('settlements_status_valid', sql`${t.status} in ('pending_settlement', 'settled')`),
    check(
      'settlements_sums_valid',
      sql`${t.orderCount} > 0 and ${t.feeMinor} >= 0 and ${t.netMinor} = ${t.grossMinor} - ${t.feeMinor}`,
    ),
    check(
      'settlements_posted_when_settled',
      sql`(${t.status} = 'settled') = (${t.entryId} is not null and ${t.settledAt} is not null)`,
    ),
  ],
);

/**
 * What every order table (collections, payouts) keys and indexes alike: the merchant's own number once per
 * merchant, and its list's two orders (newest first, and by status).
 */
export const orderKeys = (
  table: string,
  t: {
    merchantId: AnyPgColumn;
    outTradeNo: AnyPgColumn;
    status: AnyPgColumn;
    createdAt: ExtraConfigColumn;
    id: ExtraConfigColumn;
  },
) => [
  unique(`${table}_merchant_out_trade_no_key`).on(t.merchantId, t.outTradeNo),
  // Built with INCLUDE (amount_minor, fee_minor) by migration 0022 (drizzle has no INCLUDE): minute-range sums read it alone.
  index(`${table}_merchant_created_idx`).on(t.merchantId, t.createdAt.desc(), t.id.desc()),
  index(`${table}_merchant_status_created_idx`).on(t.merchantId, t.status, t.createdAt.desc(), t.id.desc()),
];

/** The first columns of an order (collections, payouts): ids, its channel, our number and the merchant's. */
export const orderHeadColumns = () => ({
  id: idColumn(),
  merchantId: merchantIdColumn(),
  channelId: channelIdColumn(),
  channelCode: text('channel_code').notNull(),
  tradeNo: text('trade_no').notNull().unique(),
  outTradeNo: text('out_trade_no').notNull(),
});

/**
 * A collection (pay-in) order. Its pages keep 10% free (fillfactor 90, migration 0047: drizzle has no
 * table storage parameters), so that later changes of unindexed columns (a refund's refunded_minor) are
 * HOT updates.
 */
export const collections = pgTable(
  'collections',
  {
    ...orderHeadColumns(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** Frozen at creation: round_half_up(amount x rate) + fixed. */
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
    /** What its refunds in processing or succeeded took back (DESIGN 14); never above the amount. */
    refundedMinor: bigint('refunded_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('to_be_paid'),
    settlementStatus: text('settlement_status').notNull().default('unsettled'),
    settlementId: bigint('settlement_id', { mode: 'number' }).references(() => settlements.id),
    notifyUrl: text('notify_url'),
    returnUrl: text('return_url'),
    payerName: text('payer_name'),
    note: text('note'),
    /** The channel's own number for the order (the spec's outNo, "associated order number"), once it gave one. */
    channelRef: text('channel_ref'),
    /**
     * Where the payer pays, as the channel's adapter gave it at creation: a path of this server (the
     * public URL goes in front) or a provider's full URL.
     */
    payUrl: text('pay_url'),
    /**
     * Routed: the call named no channel, so routing chose it and failover may move it (DESIGN 14); a
     * call that named its `channel` forced it, and it never leaves that channel.
     */
    routed: boolean('routed').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When it became closed or failed. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...orderKeys('collections', t),
    index('collections_merchant_paid_idx')
      .on(t.merchantId, t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    index('collections_channel_idx').on(t.channelId),
    index('collections_settlement_idx').on(t.settlementId),
    index('collections_expiring_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'to_be_paid'`),
    index('collections_unsettled_idx')
      .on(t.channelId, t.paidAt)
      .where(sql`${t.status} = 'paid' and ${t.settlementStatus} = 'unsettled'`),
    check('collections_status_valid', sql`${t.status} in (${quotedList(COLLECTION_STATUSES)})`),
    check(
      'collections_settlement_status_valid',
      sql`${t.settlementStatus} in (${quotedList(SETTLEMENT_STATUSES)})`,
    ),
    check('collections_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('collections_amounts_valid', sql`${t.amountMinor} > 0 and ${t.feeMinor} >= 0`),
    check(
      'collections_refunded_valid',
      sql`${t.refundedMinor} >= 0 and ${t.refundedMinor} <= ${t.amountMinor} and (${t.refundedMinor} = 0 or ${t.status} = 'paid')`,
    ),
    check(
      'collections_settled_only_when_paid',
      sql`${t.settlementStatus} = 'unsettled' or (${t.status} = 'paid' and ${t.settlementId} is not null)`,
    ),
  ],
);

/** The callback outbox: one event per state change, written in the change's transaction. */
export const callbackEvents = pgTable(
  'callback_events',
  {
    /** The Standard Webhooks `webhook-id`: the same on every attempt. */
    id: text('id').primaryKey(),
    merchantId: merchantIdColumn(),
    type: text('type').notNull(),
    refType: text('ref_type').notNull(),
    refId: bigint('ref_id', { mode: 'number' }).notNull(),
    url: text('url').notNull(),
    /** The exact JSON body sent (and signed) on every attempt. */
    payload: text('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('callback_events_ref_idx').on(t.merchantId, t.refType, t.refId),
    index('callback_events_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // The console's undelivered events, newest first (DESIGN 6: listed 30 days); delivered ones are most.
    index('callback_events_undelivered_idx')
      .on(t.merchantId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} <> 'delivered'`),
    check('callback_events_type_valid', sql`${t.type} in (${quotedList(CALLBACK_EVENT_TYPES)})`),
    check('callback_events_status_valid', sql`${t.status} in (${quotedList(CALLBACK_STATUSES)})`),
    check('callback_events_ref_type_valid', sql`${t.refType} in ('collection', 'payout', 'refund')`),
  ],
);

/** Every delivery attempt: status, latency, the first 1 KB of the answer. */
export const callbackAttempts = pgTable(
  'callback_attempts',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => callbackEvents.id),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.attempt] })],
);

/** Nonces the gateway saw in the last 10 minutes, per merchant: a second use is refused. */
export const gatewayNonces = pgTable(
  'gateway_nonces',
  {
    merchantId: merchantIdColumn(),
    nonce: text('nonce').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.nonce] }),
    index('gateway_nonces_created_idx').on(t.createdAt),
  ],
);
