import { createHmac, randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { nonPublicAddressKind } from './ip-address.ts';

// Standard Webhooks (https://www.standardwebhooks.com), as DESIGN 6 specifies the merchant callbacks.

export type WebhookSignatureParts = {
  /** The event id: the same on every attempt, so the receiver can deduplicate. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The raw body exactly as sent. */
  body: string;
  /** The merchant's secret, `whsec_` + base64. */
  secret: string;
};

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
};

export type DeliverWebhookOptions = {
  url: string;
  id: string;
  body: string;
  secret: string;
  /** The whole attempt (DNS, connect, answer) is bounded by this. */
  timeoutMs?: number;
  /** Allow loopback, private and other special-use targets (NOTIFY_ALLOW_PRIVATE: development and the demo). */
  allowPrivate: boolean;
  now?: () => Date;
  /** Resolves a host name to every address it has; DNS by default, injectable for tests. */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
};

export type WebhookDeliveryResult = {
  /** The answer's HTTP status, or null when none arrived. */
  statusCode: number | null;
  latencyMs: number;
  /** Why no answer arrived (refused target, DNS, connection, "timeout"), else null. */
  error: string | null;
  /** The first 1024 bytes of the answer's body as UTF-8 text, or null when no answer arrived. */
  responseExcerpt: string | null;
  /** A 2xx answer: the event is delivered. Anything else, a 3xx included, is a failed attempt. */
  ok: boolean;
};

export const RESPONSE_EXCERPT_BYTES = 1024;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;

const SECRET_PREFIX = 'whsec_';
const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** A new merchant webhook secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretKey(secret: string): Buffer {
  const match = SECRET.exec(secret);
  const key = match ? Buffer.from(match[1], 'base64') : Buffer.alloc(0);
  if (key.length === 0) throw new TypeError('A webhook secret is "whsec_" followed by base64.');
  return key;
}

/** The webhook-signature header: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the decoded secret. */
export function signWebhook({ id, timestamp, body, secret }: WebhookSignatureParts): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one delivery attempt; throws a TypeError for a malformed secret. */
export function webhookHeaders(parts: WebhookSignatureParts): WebhookHeaders {
  return {
    'webhook-id': parts.id,
    'webhook-timestamp': String(parts.timestamp),
    'webhook-signature': signWebhook(parts),
    'content-type': 'application/json',
  };
}

// The retry schedule (DESIGN 6) as Stripe keeps it: attempt n + 1 is due about RETRY_AT_MS[n - 1] after the
// first attempt, so the retries span 3 days (the last at 72 h) and then the event is given up.
const RETRY_AT_MS = [
  15_000, // 15 s
  60_000, // 1 min
  300_000, // 5 min
  900_000, // 15 min
  3_600_000, // 1 h
  10_800_000, // 3 h
  21_600_000, // 6 h
  43_200_000, // 12 h
  86_400_000, // 24 h
  129_600_000, // 36 h
  172_800_000, // 48 h
  259_200_000, // 72 h
];

/** Attempts per event in total: the first delivery and twelve retries. */
export const WEBHOOK_MAX_ATTEMPTS = RETRY_AT_MS.length + 1;

/** When the last retry is due, after the first attempt (72 h): an event still failing then is given up. */
export const WEBHOOK_RETRY_SPAN_MS = RETRY_AT_MS.at(-1)!;

/**
 * The wait after attempt `attemptJustFailed` fails until the next (the gap between two points of the
 * schedule), with ±10% jitter so failed merchants do not get retried in lockstep; null once the last of the
 * WEBHOOK_MAX_ATTEMPTS (13) attempts has failed, when the event is given up.
 */
export function retryDelayMs(attemptJustFailed: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptJustFailed) || attemptJustFailed < 1) {
    throw new RangeError(`attemptJustFailed counts from 1, got ${attemptJustFailed}`);
  }
  const at = RETRY_AT_MS[attemptJustFailed - 1];
  if (at === undefined) return null;
  const gap = at - (RETRY_AT_MS[attemptJustFailed - 2] ?? 0);
  return Math.round(gap * (0.9 + 0.2 * random()));
}

/**
 * One delivery attempt: a signed POST to the notify URL. Only http(s); the host is resolved once, every
 * address checked against the special-use ranges (unless allowPrivate), and the connection pinned to the
 * checked addresses so DNS rebinding cannot swap them. Redirects are not followed; at most the first 1024 bytes of the answer are
 * read. Never throws: every failure is in the result.
 */
export async function deliverWebhook(options: DeliverWebhookOptions): Promise<WebhookDeliveryResult> {
  const started = performance.now();
  const deadline = started + (options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS);
  const result = (outcome: Outcome): WebhookDeliveryResult => {
    const statusCode = 'statusCode' in outcome ? outcome.statusCode : null;
    return {
      statusCode,
      latencyMs: Math.round(performance.now() - started),
      error: 'error' in outcome ? outcome.error : null,
      responseExcerpt: 'excerpt' in outcome ? outcome.excerpt : null,
      ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    };
  };
  try {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return result({ error: 'invalid url' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return result({ error: 'unsupported scheme' });

    const timestamp = Math.floor((options.now ?? (() => new Date()))().getTime() / 1000);
    let headers: WebhookHeaders;
    try {
      headers = webhookHeaders({ id: options.id, timestamp, body: options.body, secret: options.secret });
    } catch {
      return result({ error: 'invalid webhook secret' });
    }

    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(host);
    let addresses: LookupAddress[];
    if (family !== 0) {
      addresses = [{ address: host, family }];
    } else {
      const lookup = options.lookup ?? ((name: string) => dnsLookup(name, { all: true, verbatim: true }));
      const resolved = await beforeDeadline(lookup(host), deadline);
      if (resolved === TIMED_OUT) return result({ error: 'timeout' });
      addresses = resolved;
    }
    if (addresses.length === 0) return result({ error: `dns lookup found no address for ${host}` });
    if (!options.allowPrivate) {
      for (const { address } of addresses) {
        const kind = nonPublicAddressKind(address);
        if (kind) return result({ error: `address not allowed: ${address} is ${kind}` });
      }
    }
    return result(await post(url, host, addresses, headers, options.body, deadline - performance.now()));
  } catch (error) {
    return result({ error: describeError(error) });
  }
}

type Outcome = { error: string } | { statusCode: number; excerpt: string };

const TIMED_OUT = Symbol('timed out');

async function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function post(
  url: URL,
  host: string,
  addresses: LookupAddress[],
  headers: WebhookHeaders,
  body: string,
  remainingMs: number,
): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    // Node asks this instead of DNS, so the socket can only reach the addresses that were checked.
    const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request: ClientRequest = send({
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      auth: url.username
        ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
        : undefined,
      headers: {
        ...headers,
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Paydesk-Webhooks/1.0',
      },
      lookup: pinnedLookup,
      agent: false, // a fresh connection per attempt: never a pooled socket from an earlier resolution
    });
    let response: IncomingMessage | null = null;
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    // Once the status line is in, the attempt's outcome is that status; the body only feeds the excerpt.
    const answered = () =>
      settle({ statusCode: response?.statusCode ?? 0, excerpt: utf8Excerpt(Buffer.concat(received)) });
    const failed = (error: unknown) => (response ? answered() : settle({ error: describeError(error) }));
    const timer = setTimeout(() => (response ? answered() : settle({ error: 'timeout' })), remainingMs);

    request.on('error', failed);
    request.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        const wanted = RESPONSE_EXCERPT_BYTES - receivedBytes;
        received.push(chunk.length > wanted ? chunk.subarray(0, wanted) : chunk);
        receivedBytes += Math.min(chunk.length, wanted);
        // Enough: stop reading, so a huge or endless answer costs neither memory nor time.
        if (receivedBytes >= RESPONSE_EXCERPT_BYTES) answered();
      });
      res.on('end', answered);
      res.on('error', answered);
      res.on('close', answered);
    });
    request.end(body);
  });
}

/** At most RESPONSE_EXCERPT_BYTES of UTF-8 text: a character cut at the end is dropped, not mangled. */
function utf8Excerpt(bytes: Buffer): string {
  const text = new StringDecoder('utf8').write(bytes);
  // Invalid bytes decode to U+FFFD (3 bytes each), which can make the text longer than the bytes were.
  if (Buffer.byteLength(text) <= RESPONSE_EXCERPT_BYTES) return text;
  return new StringDecoder('utf8').write(Buffer.from(text).subarray(0, RESPONSE_EXCERPT_BYTES));
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
