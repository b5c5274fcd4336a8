import type { paths } from './openapi.ts';

// The gateway's objects and request bodies, taken from the OpenAPI document (`openapi.ts`, generated from
// /gateway/openapi.json by `npm run generate:types`). What the document does not describe yet (the error
// codes, the callback events) is written below from the reference (DESIGN 6, 12 and 14).

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type DataOf<T> = Json<T> extends { data: infer Data } ? Data : never;

type CreateCollection = paths['/gateway/v1/collections']['post'];
type CreatePayout = paths['/gateway/v1/payouts']['post'];
type CreateRefund = paths['/gateway/v1/collections/{trade_no}/refunds']['post'];
type GetBalance = paths['/gateway/v1/balance']['get'];

/** A collection (pay-in order), as the gateway answers it and `collection.*` callbacks carry it. */
export type Collection = DataOf<CreateCollection['responses'][201]>;
/** A payout, as the gateway answers it and `payout.*` callbacks carry it (`account_no` masked). */
export type Payout = DataOf<CreatePayout['responses'][201]>;
/** A refund of a collection, as the gateway answers it and `refund.*` callbacks carry it. */
export type Refund = DataOf<CreateRefund['responses'][201]>;
/** The balance of the key's mode: `total` = `available` + `locked`. */
export type Balance = DataOf<GetBalance['responses'][200]>;

/** `POST /gateway/v1/collections`: amounts are decimal strings (`"100.00"`), never numbers. */
export type CreateCollectionParams = Json<CreateCollection['requestBody']>;
/** `POST /gateway/v1/payouts`: the payee's bank details depend on the channel's country. */
export type CreatePayoutParams = Json<CreatePayout['requestBody']>;
/** `POST /gateway/v1/collections/{trade_no}/refunds`. */
export type CreateRefundParams = Json<CreateRefund['requestBody']>;

export type CollectionStatus = Collection['status'];
export type PayoutStatus = Payout['status'];
export type RefundStatus = Refund['status'];

/** The `code` of a gateway error answer (the reference's Errors table); react to it, not to the message. */
export type GatewayErrorCode =
  | 'signature_invalid'
  | 'signature_header_invalid'
  | 'timestamp_out_of_window'
  | 'nonce_reused'
  | 'unknown_key'
  | 'ip_not_allowed'
  | 'merchant_disabled'
  | 'not_found'
  | 'out_trade_no_taken'
  | 'out_refund_no_taken'
  | 'invalid_state'
  | 'conflict'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'amount_out_of_range'
  | 'channel_unavailable'
  | 'insufficient_funds'
  | 'refund_exceeds_amount'
  | 'limit_exceeded'
  | 'blocked'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_flight'
  | 'throttled'
  | 'server_error'
  | 'service_unavailable'
  | (string & {});

/** An error answer's body: `{message, code}` and, per code, the fields that help. */
export type GatewayErrorBody = {
  message: string;
  code: GatewayErrorCode;
  request_id?: string;
  /** 422 validation_failed (and some others): the messages per field. */
  errors?: Record<string, string[]>;
  /** 409 out_trade_no_taken, out_refund_no_taken: the existing order's number. */
  trade_no?: string;
  /** 409 out_refund_no_taken: the existing refund's number. */
  refund_no?: string;
  /** 422 limit_exceeded: which limit (`per_order_max`, `daily_amount`, ...). */
  limit?: string;
  /** 422 blocked: which block list. */
  list?: string;
};

type Event<Type extends string, Data> = {
  /** The event id: the same on every retry (the `webhook-id` header). Deduplicate on it. */
  id: string;
  type: Type;
  created_at: string;
  data: Data;
};

/** A callback's body, by `type` (Standard Webhooks; DESIGN 6 and 14). */
export type WebhookEvent =
  | Event<'collection.paid' | 'collection.closed' | 'collection.failed', Collection>
  | Event<'payout.succeeded' | 'payout.failed' | 'payout.refunded', Payout>
  | Event<'refund.succeeded' | 'refund.failed', Refund>;

export type WebhookEventType = WebhookEvent['type'];
