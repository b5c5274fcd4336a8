import { randomUUID } from 'node:crypto';
import { errorFromAnswer, PaydeskConnectionError, PaydeskError } from './errors.ts';
import { signingHeaders } from './signing.ts';
import type {
  Balance,
  Collection,
  CreateCollectionParams,
  CreatePayoutParams,
  CreateRefundParams,
  Payout,
  Refund,
} from './types.ts';
import { verifyWebhook, type VerifyOptions, type WebhookHeaders } from './webhooks.ts';

export type PaydeskOptions = {
  /** Your Paydesk server, e.g. `https://pay.example.com` (the paths start with `/gateway/v1/`). */
  baseUrl: string;
  /** Your merchant number, e.g. `M100001` (the same in both modes). */
  merchantNo: string;
  /** Your access key: a `test_...` key (test mode) or a `live_...` key; the key decides the mode. */
  accessKey: string;
  /** The access key's secret key: it signs every request and never leaves your server. */
  secretKey: string;
  /**
   * Retries after a network error, a timeout, 429 or 5xx (and a 409 `idempotency_key_in_flight`), never
   * after another 4xx. 3 by default.
   */
  maxRetries?: number;
  /** Each attempt's timeout. 30 s by default. */
  timeoutMs?: number;
  /** The first retry's delay; each next one doubles, with jitter (a 429's Retry-After wins). 500 ms by default. */
  retryDelayMs?: number;
  /** The fetch to send with (global fetch by default): a proxy's, or a test's. */
  fetch?: typeof fetch;
};

/** What came with an answer: on every object the client returns, as a non-enumerable `lastResponse`. */
export type ResponseInfo = {
  status: number;
  headers: Headers;
  requestId: string | undefined;
  /** `Idempotent-Replayed: true`: the answer is the one stored for this Idempotency-Key. */
  replayed: boolean;
  /** The Idempotency-Key the request was sent with (every attempt the same). */
  idempotencyKey: string | undefined;
  /** How many attempts the call took (1 when the first answered). */
  attempts: number;
};

export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

export type IdempotentCallOptions = {
  /** Sent as `Idempotency-Key`: the same key and body replay the first answer. Generated (a UUID) when not given. */
  idempotencyKey?: string;
};

type Request = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The Paydesk gateway (`/gateway/v1/`): every request signed with your access key, retried on network
 * errors, timeouts, 429 and 5xx with backoff (a payout or refund with the same Idempotency-Key each time).
 */
export class Paydesk {
  /** Verifies callbacks (Standard Webhooks); no client needed: `Paydesk.webhooks.verify(rawBody, headers, whsec)`. */
  static readonly webhooks = {
    verify: (
      rawBody: string | Uint8Array,
      headers: WebhookHeaders,
      webhookSecret: string,
      options?: VerifyOptions,
    ) => verifyWebhook(rawBody, headers, webhookSecret, options),
  };

  readonly collections = {
    /** `POST /gateway/v1/collections`: send the payer to the answer's `pay_url`. A repeated out_trade_no: 409 with `trade_no`. */
    create: (params: CreateCollectionParams) =>
      this.request<Collection>({ method: 'POST', path: '/gateway/v1/collections', body: params }),
    /** `GET /gateway/v1/collections/{trade_no}`. */
    get: (tradeNo: string) =>
      this.request<Collection>({
        method: 'GET',
        path: `/gateway/v1/collections/${encodeURIComponent(tradeNo)}`,
      }),
    /** `GET /gateway/v1/collections?out_trade_no=`. */
    getByOutTradeNo: (outTradeNo: string) =>
      this.request<Collection>({
        method: 'GET',
        path: '/gateway/v1/collections',
        query: { out_trade_no: outTradeNo },
      }),
  };

  readonly payouts = {
    /** `POST /gateway/v1/payouts` with an Idempotency-Key (yours, or a new UUID), the same on every retry. */
    create: (params: CreatePayoutParams, options: IdempotentCallOptions = {}) =>
      this.request<Payout>({
        method: 'POST',
        path: '/gateway/v1/payouts',
        body: params,
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
    /** `GET /gateway/v1/payouts/{trade_no}`. */
    get: (tradeNo: string) =>
      this.request<Payout>({ method: 'GET', path: `/gateway/v1/payouts/${encodeURIComponent(tradeNo)}` }),
    /** `GET /gateway/v1/payouts?out_trade_no=`. */
    getByOutTradeNo: (outTradeNo: string) =>
      this.request<Payout>({
        method: 'GET',
        path: '/gateway/v1/payouts',
        query: { out_trade_no: outTradeNo },
      }),
  };

  readonly refunds = {
    /** `POST /gateway/v1/collections/{trade_no}/refunds` with an Idempotency-Key (yours, or a new UUID). */
    create: (tradeNo: string, params: CreateRefundParams, options: IdempotentCallOptions = {}) =>
      this.request<Refund>({
        method: 'POST',
        path: `/gateway/v1/collections/${encodeURIComponent(tradeNo)}/refunds`,
        body: params,
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
    /** `GET /gateway/v1/refunds/{refund_no}`. */
    get: (refundNo: string) =>
      this.request<Refund>({ method: 'GET', path: `/gateway/v1/refunds/${encodeURIComponent(refundNo)}` }),
    /** `GET /gateway/v1/refunds?out_refund_no=`. */
    getByOutRefundNo: (outRefundNo: string) =>
      this.request<Refund>({
        method: 'GET',
        path: '/gateway/v1/refunds',
        query: { out_refund_no: outRefundNo },
      }),
  };

  readonly balance = {
    /** `GET /gateway/v1/balance`: the key's mode's balance. */
    get: () => this.request<Balance>({ method: 'GET', path: '/gateway/v1/balance' }),
  };

  readonly #options: Required<Omit<PaydeskOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: PaydeskOptions) {
    for (const name of ['baseUrl', 'merchantNo', 'accessKey', 'secretKey'] as const) {
      if (typeof options?.[name] !== 'string' || options[name] === '') {
        throw new TypeError(`new Paydesk({...}) needs ${name}.`);
      }
    }
    this.#options = {
      maxRetries: 3,
      timeoutMs: 30_000,
      retryDelayMs: 500,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: options.fetch ?? globalThis.fetch,
    };
  }

  /** Whether the access key is a test key (`test_...`): everything it creates and reads is test mode's. */
  get testMode(): boolean {
    return this.#options.accessKey.startsWith('test_');
  }

  /** One signed call, retried as the class says; answers the `data` of the answer. */
  async request<T extends object>(request: Request): Promise<WithResponse<T>> {
    const { baseUrl, maxRetries, timeoutMs, retryDelayMs } = this.#options;
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    const pathWithQuery = request.path + query;
    // Serialised once: these bytes are hashed, signed and sent, on every attempt.
    const body = request.body === undefined ? '' : JSON.stringify(request.body);
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...signingHeaders(this.#options, { method: request.method, pathWithQuery, body }),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
      };
      let response: Response;
      try {
        response = await this.#options.fetch(baseUrl + pathWithQuery, {
          method: request.method,
          headers,
          ...(body ? { body } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        if (attempt <= maxRetries) {
          await sleep(backoff(retryDelayMs, attempt));
          continue;
        }
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new PaydeskConnectionError(`No answer from Paydesk at ${baseUrl}: ${reason}`, {
          status: 0,
          code: 'network_error',
          cause,
        });
      }
      const text = await response.text();
      let answer: unknown;
      try {
        answer = text ? JSON.parse(text) : undefined;
      } catch {
        answer = undefined;
      }
      if (response.ok) {
        const data = (answer as { data?: T } | undefined)?.data;
        if (!data || typeof data !== 'object') {
          throw new PaydeskError(`Paydesk answered HTTP ${response.status} without a data object.`, {
            status: response.status,
            code: 'unexpected_answer',
            headers: response.headers,
          });
        }
        const info: ResponseInfo = {
          status: response.status,
          headers: response.headers,
          requestId: response.headers.get('x-request-id') ?? undefined,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          idempotencyKey: request.idempotencyKey,
          attempts: attempt,
        };
        Object.defineProperty(data, 'lastResponse', { value: info, enumerable: false });
        return data as WithResponse<T>;
      }
      // 409 idempotency_key_in_flight: the first attempt with this key is still running (its answer was
      // lost or timed out): asking again later gets its answer, replayed.
      const inFlight =
        response.status === 409 &&
        request.idempotencyKey !== undefined &&
        (answer as { code?: string } | undefined)?.code === 'idempotency_key_in_flight';
      const retryable = response.status === 429 || response.status >= 500 || inFlight;
      if (retryable && attempt <= maxRetries) {
        const retryAfter = Number(response.headers.get('retry-after'));
        const wait =
          response.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0
            ? retryAfter * 1000
            : backoff(retryDelayMs, attempt);
        await sleep(wait);
        continue;
      }
      throw errorFromAnswer(response.status, answer, response.headers);
    }
  }
}

/** The delay before retry `attempt`: base * 2^(attempt-1), between half and all of it (jitter). */
function backoff(baseMs: number, attempt: number): number {
  const full = baseMs * 2 ** (attempt - 1);
  return Math.round(full / 2 + (Math.random() * full) / 2);
}
