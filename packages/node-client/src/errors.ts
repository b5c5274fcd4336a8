import type { GatewayErrorBody, GatewayErrorCode } from './types.ts';

/** What every error of this client carries: the HTTP status (0 when no answer came), the code and the message. */
export class PaydeskError extends Error {
  /** The answer's HTTP status; 0 when no answer arrived (a network error or a timeout). */
  readonly status: number;
  /** The answer's `code` (the reference's Errors table); `network_error` when no answer arrived. */
  readonly code: GatewayErrorCode;
  /** Quote it to support. */
  readonly requestId: string | undefined;
  /** The whole error answer, as sent. */
  readonly body: GatewayErrorBody | undefined;
  /** The answer's headers (`retry-after`, ...). */
  readonly headers: Headers | undefined;

  constructor(
    message: string,
    init: {
      status: number;
      code: GatewayErrorCode;
      body?: GatewayErrorBody;
      headers?: Headers;
      cause?: unknown;
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = init.body?.request_id ?? init.headers?.get('x-request-id') ?? undefined;
  }
}

/** 401: the signature, the timestamp, the nonce or the key was refused. */
export class PaydeskAuthenticationError extends PaydeskError {}
/** 403: the calling IP is not on the IP whitelist (`ip_not_allowed`), or the merchant is disabled. */
export class PaydeskPermissionError extends PaydeskError {}
/** 404: no such object among this key's mode's (another merchant's or mode's object answers 404 too). */
export class PaydeskNotFoundError extends PaydeskError {}

/** 409: a duplicate `out_trade_no` / `out_refund_no` (with the existing number), a wrong state, or a key in flight. */
export class PaydeskConflictError extends PaydeskError {
  /** `out_trade_no_taken`: the existing collection's or payout's `trade_no`. */
  readonly trade_no: string | undefined;
  /** `out_refund_no_taken`: the existing refund's `refund_no`. */
  readonly refund_no: string | undefined;

  constructor(message: string, init: ConstructorParameters<typeof PaydeskError>[1]) {
    super(message, init);
    this.trade_no = init.body?.trade_no;
    this.refund_no = init.body?.refund_no;
  }
}

/** 422: the request was refused as it is (`validation_failed` with `errors` per field, `insufficient_funds`, ...). */
export class PaydeskInvalidRequestError extends PaydeskError {
  /** `validation_failed`: the messages per field. */
  readonly errors: Record<string, string[]> | undefined;
  /** `limit_exceeded`: which limit. */
  readonly limit: string | undefined;
  /** `blocked`: which block list. */
  readonly list: string | undefined;

  constructor(message: string, init: ConstructorParameters<typeof PaydeskError>[1]) {
    super(message, init);
    this.errors = init.body?.errors;
    this.limit = init.body?.limit;
    this.list = init.body?.list;
  }
}

/** 429: too many calls; `retryAfterSeconds` says how long to wait. */
export class PaydeskRateLimitError extends PaydeskError {
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, init: ConstructorParameters<typeof PaydeskError>[1]) {
    super(message, init);
    const header = Number(init.headers?.get('retry-after'));
    this.retryAfterSeconds = Number.isFinite(header) && header >= 0 ? header : undefined;
  }
}

/** 5xx: Paydesk could not answer; retried by the client before this is thrown. */
export class PaydeskServerError extends PaydeskError {}

/** No answer arrived: a connection error or a timeout; retried by the client before this is thrown. */
export class PaydeskConnectionError extends PaydeskError {}

/** A callback whose signature, timestamp or headers do not check out: answer it with a non-2xx status. */
export class PaydeskWebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaydeskWebhookVerificationError';
  }
}

/** The typed error for an error answer. */
export function errorFromAnswer(status: number, body: unknown, headers: Headers): PaydeskError {
  const parsed =
    body && typeof body === 'object' && typeof (body as GatewayErrorBody).code === 'string'
      ? (body as GatewayErrorBody)
      : undefined;
  const message = parsed?.message ?? `Paydesk answered HTTP ${status}.`;
  const init = {
    status,
    code: parsed?.code ?? (status >= 500 ? 'server_error' : 'unknown_error'),
    body: parsed,
    headers,
  };
  if (status === 401) return new PaydeskAuthenticationError(message, init);
  if (status === 403) return new PaydeskPermissionError(message, init);
  if (status === 404) return new PaydeskNotFoundError(message, init);
  if (status === 409) return new PaydeskConflictError(message, init);
  if (status === 422) return new PaydeskInvalidRequestError(message, init);
  if (status === 429) return new PaydeskRateLimitError(message, init);
  if (status >= 500) return new PaydeskServerError(message, init);
  return new PaydeskError(message, init);
}
