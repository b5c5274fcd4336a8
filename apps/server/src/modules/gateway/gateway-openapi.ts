import { ERROR_CODES, type ErrorCode } from '@paydesk/shared';
import {
  CALLBACK_EVENT_TYPES,
  type CallbackEventType,
  CreateCollectionBodySchema,
  GatewayCollectionSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { BalanceSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import { CreatePayoutBodySchema, GatewayPayoutSchema } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { CreateRefundBodySchema, GatewayRefundSchema } from '@paydesk/shared/refunds/refunds.schemas.ts';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CREATE_COLLECTION_CODE_SAMPLES } from './gateway-docs.ts';

// The gateway's OpenAPI 3.1 document (DESIGN 6), complete enough for a code generator: the route schemas
// (fastify-type-provider-zod) with the named schemas of one zod registry as components, and what the
// routes do not declare at run time (their refusals, the signing headers, Idempotency-Key, callbacks)
// added here from one table, so a generated client can sign, type every answer and read every callback.

type Meta = { id?: string; description?: string; [key: string]: unknown };

/** The named schemas of the gateway document: each is `#/components/schemas/<id>`. */
export const gatewayRegistry = z.registry<Meta>();

/** Every refusal's body (the error handler's shape). */
export const GatewayErrorSchema = z.looseObject({
  message: z.string().meta({ description: 'For people (logs, support): it may change. React to `code`.' }),
  code: z.string().meta({ description: 'Stable: what went wrong, from the table of error codes.' }),
  request_id: z.string().meta({ description: 'Quote it to support.' }),
  errors: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .meta({ description: '422 validation_failed: each field that is missing or malformed, with why.' }),
  trade_no: z
    .string()
    .optional()
    .meta({ description: '409 out_trade_no_taken: the order that already has this out_trade_no.' }),
  refund_no: z
    .string()
    .optional()
    .meta({ description: '409 out_refund_no_taken: the refund that already has this out_refund_no.' }),
  limit: z.string().optional().meta({ description: '422 limit_exceeded: which limit refused the order.' }),
  list: z.string().optional().meta({ description: '422 blocked: which block list matched.' }),
});

const EVENT_DATA = {
  collection: GatewayCollectionSchema,
  payout: GatewayPayoutSchema,
  refund: GatewayRefundSchema,
} as const;

const EVENT_DESCRIPTIONS: Record<CallbackEventType, string> = {
  'collection.paid': 'The payer paid.',
  'collection.closed': 'The collection expired unpaid.',
  'collection.failed': 'The payment failed.',
  'payout.succeeded': 'The payout reached the payee.',
  'payout.failed': 'The payout failed; failure_reason says why.',
  'payout.refunded': 'The bank returned a successful payout; the amount is back in your available balance.',
  'refund.succeeded': 'The refund reached the payer.',
  'refund.failed':
    'The refund failed; failure_reason says why, and the amount is back in your available balance.',
};

/** `collection.paid` -> `CollectionPaidEvent`. */
export const eventSchemaId = (type: CallbackEventType) =>
  `${type
    .split('.')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('')}Event`;

/** Each callback's body, by event type. */
export const CALLBACK_EVENT_SCHEMAS = Object.fromEntries(
  CALLBACK_EVENT_TYPES.map((type) => [
    type,
    z.object({
      id: z.string().meta({ description: 'The event id: the webhook-id header, the same on every retry.' }),
      type: z.literal(type),
      created_at: z.string().meta({ description: 'When the event happened (ISO 8601, UTC).' }),
      data: EVENT_DATA[type.split('.')[0] as keyof typeof EVENT_DATA],
    }),
  ]),
) as unknown as Record<CallbackEventType, z.ZodObject>;

gatewayRegistry.add(GatewayCollectionSchema, {
  id: 'Collection',
  description: 'A collection (pay-in) order, as answered and as collection.* callbacks carry it.',
});
gatewayRegistry.add(GatewayPayoutSchema, {
  id: 'Payout',
  description: 'A payout, as answered and as payout.* callbacks carry it. account_no is masked.',
});
gatewayRegistry.add(GatewayRefundSchema, {
  id: 'Refund',
  description: 'A refund of a paid collection, as answered and as refund.* callbacks carry it.',
});
gatewayRegistry.add(BalanceSchema, {
  id: 'Balance',
  description: 'Your balance in the mode of the key: total = available + locked.',
});
gatewayRegistry.add(CreateCollectionBodySchema, { id: 'CreateCollection' });
gatewayRegistry.add(CreatePayoutBodySchema, { id: 'CreatePayout' });
gatewayRegistry.add(CreateRefundBodySchema, { id: 'CreateRefund' });
gatewayRegistry.add(GatewayErrorSchema, {
  id: 'Error',
  description: 'Every refusal: {message, code, request_id} and, by code, the fields that say more.',
});
for (const type of CALLBACK_EVENT_TYPES) {
  gatewayRegistry.add(CALLBACK_EVENT_SCHEMAS[type], {
    id: eventSchemaId(type),
    description: `Callback ${type}: ${EVENT_DESCRIPTIONS[type]}`,
  });
}

// ---- The examples: answers as the server gives them (gateway-openapi tests check them against real ones).

const REQUEST_ID = '0b8f3c52-2d4e-4c4f-9a57-3f0a3c9f1e21';

export const EXAMPLE_COLLECTION = {
  trade_no: 'C2026010100000001',
  out_trade_no: 'ORDER-1001',
  status: 'to_be_paid',
  amount: '100.00',
  fee: '0.60',
  currency: 'CNY',
  channel: 'sandbox-cny',
  pay_url: 'https://pay.example.com/sandbox/pay/C2026010100000001',
  expires_at: '2026-01-01T00:30:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  paid_at: null,
  settlement_status: 'unsettled',
  livemode: false,
};

export const EXAMPLE_PAYOUT = {
  trade_no: 'P2026010100000001',
  out_trade_no: 'PAYOUT-1001',
  status: 'pending',
  amount: '500.00',
  fee: '2.00',
  currency: 'CNY',
  channel: 'sandbox-pay',
  payee_name: 'Zhang San',
  account_no: '************1234',
  created_at: '2026-01-01T00:00:00.000Z',
  finished_at: null,
  failure_reason: null,
  livemode: false,
};

export const EXAMPLE_REFUND = {
  refund_no: 'R2026010100100000123456',
  out_refund_no: 'REFUND-1001',
  trade_no: 'C2026010100000001',
  status: 'processing',
  amount: '30.00',
  currency: 'CNY',
  reason: 'One item out of stock',
  created_at: '2026-01-01T01:00:00.000Z',
  finished_at: null,
  failure_reason: null,
  livemode: false,
};

export const EXAMPLE_BALANCE = { total: '9902.00', available: '9400.00', locked: '502.00', currency: 'CNY' };

/** One refusal an operation can answer: its code, and an answer's body as the server gives it. */
type Refusal = { code: ErrorCode; summary: string; message: string; fields?: Record<string, unknown> };

const refusal = (
  code: ErrorCode,
  summary: string,
  message: string,
  fields?: Record<string, unknown>,
): Refusal => ({ code, summary, message, ...(fields ? { fields } : {}) });

const SIGNATURE_REFUSALS: Refusal[] = [
  refusal(
    ERROR_CODES.signatureHeaderInvalid,
    'A signing header is missing or malformed; the message names it',
    'The X-Nonce header must be 16 to 64 letters, digits, _ or -, new for every call.',
  ),
  refusal(
    ERROR_CODES.signatureInvalid,
    'The signature does not match the request',
    'The signature does not match the request.',
  ),
  refusal(
    ERROR_CODES.timestampOutOfWindow,
    "X-Timestamp is more than 300 s from Paydesk's clock",
    'X-Timestamp is more than 300 seconds away from our clock.',
  ),
  refusal(
    ERROR_CODES.nonceReused,
    'This X-Nonce was used in the last 10 minutes',
    'This nonce was already used in the last 10 minutes.',
  ),
  refusal(
    ERROR_CODES.unknownKey,
    'No such merchant number and access key pair',
    'The merchant number and access key do not match a key of ours.',
  ),
];

const ACCESS_REFUSALS: Refusal[] = [
  refusal(
    ERROR_CODES.ipNotAllowed,
    'The calling IP is not on your IP whitelist (an empty whitelist refuses every call)',
    "The IP address 203.0.113.7 is not in the merchant's whitelist.",
  ),
  refusal(ERROR_CODES.merchantDisabled, 'Your merchant account is disabled', 'This merchant is disabled.'),
];

const UNSUPPORTED_BODY = refusal(
  ERROR_CODES.unsupportedMediaType,
  'A body that is not Content-Type: application/json',
  'The gateway takes a request body as JSON only: send it with Content-Type: application/json.',
);

const THROTTLED = [
  refusal(
    ERROR_CODES.throttled,
    'Over your quota of signed calls a minute',
    'Too many calls: at most 3000 a minute. Please wait the seconds in Retry-After.',
  ),
  refusal(
    ERROR_CODES.throttled,
    'Too many refused calls from your address',
    'Too many refused calls from this address. Please wait the seconds in Retry-After.',
  ),
];

const BAD_JSON = refusal(ERROR_CODES.badRequest, 'The body is not valid JSON', 'The body is not valid JSON.');

const validationFailed = (field: string, sentence: string) =>
  refusal(ERROR_CODES.validationFailed, 'A field is missing or malformed; errors names each', sentence, {
    errors: { [field]: [sentence] },
  });

const LIMIT_EXCEEDED = (kind: 'collection' | 'payout') =>
  refusal(
    ERROR_CODES.limitExceeded,
    'A limit of your account refuses the order; limit names it',
    `The amount is above this merchant's maximum of 10000.00 CNY per ${kind}.`,
    { limit: 'per_order_max' },
  );
const BLOCKED = (list: 'payer_ip' | 'payee_account') =>
  refusal(
    ERROR_CODES.blocked,
    'On a block list of your account; list names it',
    list === 'payer_ip'
      ? "The payer's IP address is on the block list: the collection is refused."
      : 'This payee account is on the block list: the payout is refused.',
    { list },
  );
const CHANNEL_UNAVAILABLE = (kind: 'collection' | 'payout') =>
  refusal(
    ERROR_CODES.channelUnavailable,
    `No open ${kind} channel in the mode of your key (or not the channel you named)`,
    `No ${kind} channel is open for this merchant. Please contact customer service.`,
  );
/** A refusal of one field: `errors` names it with the same sentence. */
const fieldRefusal = (code: ErrorCode, summary: string, field: string, sentence: string) =>
  refusal(code, summary, sentence, { errors: { [field]: [sentence] } });
const AMOUNT_OUT_OF_RANGE = fieldRefusal(
  ERROR_CODES.amountOutOfRange,
  "The amount is outside the channel's minimum and maximum",
  'amount',
  'The amount must be between 1.00 and 50000.00.',
);
const INSUFFICIENT_FUNDS = fieldRefusal(
  ERROR_CODES.insufficientFunds,
  'More than your available balance; nothing was written',
  'amount',
  'Insufficient available balance.',
);
const IDEMPOTENCY_KEY_REUSED = fieldRefusal(
  ERROR_CODES.idempotencyKeyReused,
  'The same Idempotency-Key with a different body',
  'idempotency_key',
  'This Idempotency-Key was used with a different request.',
);
const IDEMPOTENCY_KEY_IN_FLIGHT = refusal(
  ERROR_CODES.idempotencyKeyInFlight,
  'The first call with this Idempotency-Key is still running',
  'The first request with this Idempotency-Key is still being processed.',
);

/** What one operation may answer besides its success, by status. */
type OperationAnswers = {
  success: { status: 200 | 201; example: unknown };
  refusals: Partial<Record<400 | 404 | 409 | 422, Refusal[]>>;
  /** Takes an Idempotency-Key header (payouts, refunds). */
  idempotent?: boolean;
  codeSamples?: boolean;
};

const notFound = (what: string) => [
  refusal(ERROR_CODES.notFound, `No such ${what} among yours in this mode`, `The ${what} was not found.`),
];

/** Every gateway operation, by method and OpenAPI path. */
export const GATEWAY_OPERATIONS: Record<string, OperationAnswers> = {
  'POST /gateway/v1/collections': {
    success: { status: 201, example: EXAMPLE_COLLECTION },
    codeSamples: true,
    refusals: {
      400: [BAD_JSON],
      409: [
        refusal(
          ERROR_CODES.outTradeNoTaken,
          'This out_trade_no is taken; trade_no is that order',
          'The merchant order number ORDER-1001 is already used.',
          { trade_no: 'C2026010100000001' },
        ),
      ],
      422: [
        validationFailed('amount', 'The amount field must be a string.'),
        AMOUNT_OUT_OF_RANGE,
        CHANNEL_UNAVAILABLE('collection'),
        LIMIT_EXCEEDED('collection'),
        BLOCKED('payer_ip'),
      ],
    },
  },
  'GET /gateway/v1/collections': {
    success: { status: 200, example: EXAMPLE_COLLECTION },
    refusals: {
      404: notFound('order'),
      422: [validationFailed('out_trade_no', 'The out trade no field is required.')],
    },
  },
  'GET /gateway/v1/collections/{trade_no}': {
    success: { status: 200, example: EXAMPLE_COLLECTION },
    refusals: { 404: notFound('order') },
  },
  'POST /gateway/v1/collections/{trade_no}/refunds': {
    success: { status: 201, example: EXAMPLE_REFUND },
    idempotent: true,
    refusals: {
      400: [BAD_JSON],
      404: notFound('order'),
      409: [
        refusal(
          ERROR_CODES.invalidState,
          'The collection is not paid',
          'The order is to_be_paid; only a paid order can be refunded.',
        ),
        refusal(
          ERROR_CODES.outRefundNoTaken,
          'This out_refund_no is taken; refund_no is that refund',
          'The merchant refund number REFUND-1001 is already used.',
          { refund_no: 'R2026010100100000123456' },
        ),
        IDEMPOTENCY_KEY_IN_FLIGHT,
      ],
      422: [
        validationFailed('amount', 'The amount field must be a string.'),
        fieldRefusal(
          ERROR_CODES.refundExceedsAmount,
          'More than what is left of the collection',
          'amount',
          'The refund is more than what is left of the order: at most 70.00 CNY.',
        ),
        INSUFFICIENT_FUNDS,
        refusal(
          ERROR_CODES.channelUnavailable,
          "The order's channel does not refund",
          'The channel sandbox-cny of this order cannot refund.',
        ),
        IDEMPOTENCY_KEY_REUSED,
      ],
    },
  },
  'GET /gateway/v1/refunds': {
    success: { status: 200, example: EXAMPLE_REFUND },
    refusals: {
      404: notFound('refund'),
      422: [validationFailed('out_refund_no', 'The merchant refund number is required.')],
    },
  },
  'GET /gateway/v1/refunds/{refund_no}': {
    success: { status: 200, example: EXAMPLE_REFUND },
    refusals: { 404: notFound('refund') },
  },
  'POST /gateway/v1/payouts': {
    success: { status: 201, example: EXAMPLE_PAYOUT },
    idempotent: true,
    refusals: {
      400: [BAD_JSON],
      409: [
        refusal(
          ERROR_CODES.outTradeNoTaken,
          'This out_trade_no is taken; trade_no is that payout',
          'The merchant order number PAYOUT-1001 is already used.',
          { trade_no: 'P2026010100000001' },
        ),
        IDEMPOTENCY_KEY_IN_FLIGHT,
      ],
      422: [
        validationFailed('account_no', 'The receiving account field is required.'),
        AMOUNT_OUT_OF_RANGE,
        CHANNEL_UNAVAILABLE('payout'),
        INSUFFICIENT_FUNDS,
        LIMIT_EXCEEDED('payout'),
        BLOCKED('payee_account'),
        IDEMPOTENCY_KEY_REUSED,
      ],
    },
  },
  'GET /gateway/v1/payouts': {
    success: { status: 200, example: EXAMPLE_PAYOUT },
    refusals: {
      404: notFound('payout'),
      422: [validationFailed('out_trade_no', 'The out trade no field is required.')],
    },
  },
  'GET /gateway/v1/payouts/{trade_no}': {
    success: { status: 200, example: EXAMPLE_PAYOUT },
    refusals: { 404: notFound('payout') },
  },
  'GET /gateway/v1/balance': {
    success: { status: 200, example: EXAMPLE_BALANCE },
    refusals: {},
  },
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The body is not valid JSON, or a value cannot be stored.',
  401: 'The signature was refused: see `code`. Nothing was done.',
  403: 'The call is signed but not allowed.',
  404: 'Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too).',
  409: 'A conflict with an earlier call: see `code`.',
  415: 'The body is not JSON (Content-Type: application/json). Nothing was checked or spent.',
  422: 'Refused: see `code`. Nothing was written.',
  429: 'Too many calls: wait the seconds of Retry-After.',
  503: 'Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no).',
};

/** The refusals of every signed operation, besides its own. */
const COMMON_REFUSALS: Record<number, Refusal[]> = {
  401: SIGNATURE_REFUSALS,
  403: ACCESS_REFUSALS,
  415: [UNSUPPORTED_BODY],
  429: THROTTLED,
  503: [
    refusal(
      ERROR_CODES.serviceUnavailable,
      'The service is busy',
      'The service is busy. Please try again in a moment.',
    ),
  ],
};

export const errorBodyOf = (r: Refusal) => ({
  message: r.message,
  code: r.code,
  request_id: REQUEST_ID,
  ...r.fields,
});

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function refusalResponse(status: number, refusals: Refusal[]) {
  const codes = [...new Set(refusals.map((r) => r.code))];
  const response: Record<string, unknown> = {
    description: `${STATUS_DESCRIPTIONS[status]} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: {
      'application/json': {
        schema: { allOf: [ERROR_REF, { properties: { code: { type: 'string', enum: codes } } }] },
        examples: Object.fromEntries(
          refusals.map((r, i) => [
            refusals.findIndex((o) => o.code === r.code) === i ? r.code : `${r.code}_${i}`,
            { summary: r.summary, value: errorBodyOf(r) },
          ]),
        ),
      },
    },
  };
  if (status === 429) {
    response.headers = {
      'Retry-After': {
        description: 'Seconds to wait before calling again.',
        schema: { type: 'integer', minimum: 1 },
      },
    };
  }
  return response;
}

const SIGNING_HEADERS = {
  MerchantNo: {
    name: 'X-Merchant-No',
    description: 'Your merchant number, e.g. `M100001` (the same in live and test mode).',
  },
  AccessKey: {
    name: 'X-Access-Key',
    description:
      'Your access key (the public half): a `test_` or a `live_` key, which decides the mode of everything the call creates and reads.',
  },
  Timestamp: {
    name: 'X-Timestamp',
    description: "The current unix time in seconds; refused when more than 300 s from Paydesk's clock.",
  },
  Nonce: {
    name: 'X-Nonce',
    description:
      '16 to 64 characters of `A-Z a-z 0-9 _ -`, new for every call (retries included); refused if used by your account in the last 10 minutes.',
  },
  Signature: {
    name: 'X-Signature',
    description:
      'Lowercase hex HMAC-SHA256, keyed with your access key secret (UTF-8), of `METHOD + "\\n" + PATH_WITH_QUERY + "\\n" + TIMESTAMP + "\\n" + NONCE + "\\n" + hex(SHA256(raw body))`; see Authentication.',
  },
} as const;

/** All five signing headers together sign a call: one security requirement that names them all. */
const SECURITY = [Object.fromEntries(Object.keys(SIGNING_HEADERS).map((name) => [name, []]))];

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Retry safely: the same key with the same body replays the first answer (with `Idempotent-Replayed: true`); with another body answers 422 `idempotency_key_reused`; while the first call is still running, 409 `idempotency_key_in_flight`. Keys live 24 h per merchant.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (the body’s `id`): the same on every retry. Deduplicate on it.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt. Refuse values more than 5 minutes from your clock.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches.',
    schema: { type: 'string' },
  },
];

const EXAMPLE_OF_KIND = { collection: EXAMPLE_COLLECTION, payout: EXAMPLE_PAYOUT, refund: EXAMPLE_REFUND };

/** A callback's body as Paydesk sends it, for the examples of the webhooks. */
export function exampleEvent(type: CallbackEventType) {
  const kind = type.split('.')[0] as keyof typeof EXAMPLE_OF_KIND;
  const status = {
    'collection.paid': 'paid',
    'collection.closed': 'closed',
    'collection.failed': 'failed',
    'payout.succeeded': 'success',
    'payout.failed': 'failed',
    'payout.refunded': 'refund_received',
    'refund.succeeded': 'succeeded',
    'refund.failed': 'failed',
  }[type];
  const data: Record<string, unknown> = { ...EXAMPLE_OF_KIND[kind], status };
  if (type === 'collection.paid') {
    data.paid_at = '2026-01-01T00:05:00.000Z';
  }
  if (kind !== 'collection') data.finished_at = '2026-01-01T00:05:00.000Z';
  // As the sandbox fails them (an account ending in 0000, a refund of an amount ending in .13).
  if (type === 'payout.failed') {
    data.account_no = '************0000';
    data.failure_reason = 'Sandbox: the receiving account does not exist (it ends in 0000).';
  }
  if (type === 'payout.refunded') data.failure_reason = 'Returned by the bank';
  if (type === 'refund.failed') {
    data.amount = '30.13';
    data.failure_reason = 'Sandbox: refunds of an amount ending in .13 fail.';
  }
  return { id: 'evt_0001', type, created_at: '2026-01-01T00:05:00.000Z', data };
}

function webhooks() {
  return Object.fromEntries(
    CALLBACK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `Callback ${type}`,
          description: `${EVENT_DESCRIPTIONS[type]} Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.`,
          operationId: `callback_${type.replace('.', '_')}`,
          tags: ['Callbacks'],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${eventSchemaId(type)}` },
                example: exampleEvent(type),
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: the delivery ends.' },
            default: { description: 'Anything else, a timeout or no answer: retried with backoff.' },
          },
        },
      },
    ]),
  );
}

/** `/gateway/v1/collections/{trade_no}` from an operation's key: its name for operationId. */
const operationIdOf = (method: string, path: string) => {
  const names: Record<string, string> = {
    'POST /gateway/v1/collections': 'createCollection',
    'GET /gateway/v1/collections': 'getCollectionByOutTradeNo',
    'GET /gateway/v1/collections/{trade_no}': 'getCollection',
    'POST /gateway/v1/collections/{trade_no}/refunds': 'createRefund',
    'GET /gateway/v1/refunds': 'getRefundByOutRefundNo',
    'GET /gateway/v1/refunds/{refund_no}': 'getRefund',
    'POST /gateway/v1/payouts': 'createPayout',
    'GET /gateway/v1/payouts': 'getPayoutByOutTradeNo',
    'GET /gateway/v1/payouts/{trade_no}': 'getPayout',
    'GET /gateway/v1/balance': 'getBalance',
  };
  return names[`${method} ${path}`];
};

type OpenApiOperation = {
  operationId?: string;
  parameters?: unknown[];
  responses: Record<
    string,
    { description?: string; headers?: unknown; content?: Record<string, Record<string, unknown>> }
  >;
  security?: unknown;
  requestBody?: unknown;
  'x-codeSamples'?: unknown;
};
type Document = {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  webhooks?: unknown;
  tags?: unknown;
};

/** Adds to each gateway operation what its route schema does not say (see the top of this file). */
function completeOperations(document: Document) {
  const unknown: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const answers = GATEWAY_OPERATIONS[key];
      if (!answers) {
        unknown.push(key);
        continue;
      }
      operation.operationId = operationIdOf(method.toUpperCase(), path);
      operation.security = SECURITY;
      const success = operation.responses[String(answers.success.status)];
      if (!success?.content?.['application/json'])
        throw new Error(`${key}: no ${answers.success.status} schema`);
      success.content['application/json'].example = { data: answers.success.example };
      if (answers.success.status === 201) success.description = 'Created.';
      else success.description = 'Found.';
      if (answers.idempotent) {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
        success.headers = {
          'Idempotent-Replayed': {
            description: '`true` when this is the stored first answer of the same Idempotency-Key.',
            schema: { type: 'string', enum: ['true'] },
          },
        };
      }
      if (answers.codeSamples) operation['x-codeSamples'] = CREATE_COLLECTION_CODE_SAMPLES;
      const all: Partial<Record<number, Refusal[]>> = {
        ...COMMON_REFUSALS,
        ...answers.refusals,
      };
      for (const status of Object.keys(all).map(Number).sort()) {
        operation.responses[String(status)] = refusalResponse(status, all[status]!) as never;
      }
    }
  }
  if (unknown.length > 0) throw new Error(`Gateway operations without their answers: ${unknown.join(', ')}`);
}

/** The names of the components a document refers to, followed through the components themselves. */
function referencedComponents(document: Document): Set<string> {
  const seen = new Set<string>();
  const schemas = document.components?.schemas ?? {};
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  return seen;
}

const jsonSchemaTransform = createJsonSchemaTransform({ schemaRegistry: gatewayRegistry });
const jsonSchemaTransformObject = createJsonSchemaTransformObject({ schemaRegistry: gatewayRegistry });

/** The document's tags, in the reference's order. */
export const GATEWAY_TAGS = [
  {
    name: 'Collections',
    description: 'Collect a payment: create, then query; collection.* callbacks follow.',
  },
  { name: 'Refunds', description: 'Refund a paid collection, fully or in parts; refund.* callbacks follow.' },
  { name: 'Payouts', description: 'Pay out to a bank account; payout.* callbacks follow.' },
  { name: 'Balance', description: 'Your balance in the mode of the key.' },
  { name: 'Callbacks', description: 'What Paydesk POSTs to your notify URL (Standard Webhooks).' },
];

/** @fastify/swagger's `transform`: the gateway's routes, every other route hidden. */
export const gatewayTransform: SwaggerTransform = (input) => {
  if (!input.url.startsWith('/gateway/v1/'))
    return { schema: { ...input.schema, hide: true }, url: input.url };
  return jsonSchemaTransform(input as never);
};

/** @fastify/swagger's `transformObject`: the named schemas, the signing, every answer and the callbacks. */
export const gatewayTransformObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as unknown as Document;
  completeOperations(document);
  document.webhooks = webhooks();
  document.components = {
    ...document.components,
    securitySchemes: Object.fromEntries(
      Object.entries(SIGNING_HEADERS).map(([id, { name, description }]) => [
        id,
        { type: 'apiKey', in: 'header', name, description },
      ]),
    ),
  };
  const used = referencedComponents(document);
  const schemas = document.components.schemas ?? {};
  document.components.schemas = Object.fromEntries(Object.entries(schemas).filter(([id]) => used.has(id)));
  return document as unknown as ReturnType<SwaggerTransformObject>;
};

/** Every [status, code] an operation of the document answers, sorted by status: the reference's table lists each. */
export function documentedRefusals(): Array<[string, string]> {
  const pairs = new Set<string>();
  for (const answers of Object.values(GATEWAY_OPERATIONS)) {
    const all = { ...COMMON_REFUSALS, ...answers.refusals } as Partial<Record<number, Refusal[]>>;
    for (const [status, refusals] of Object.entries(all)) {
      for (const r of refusals ?? []) pairs.add(`${status} ${r.code}`);
    }
  }
  return [...pairs].sort().map((pair) => pair.split(' ') as [string, string]);
}
