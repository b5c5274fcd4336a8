import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaydeskWebhookVerificationError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

// Callback verification as the Standard Webhooks specification says (https://www.standardwebhooks.com):
// `webhook-signature` holds one or more space-separated `v1,<base64>` values, each an HMAC-SHA256 of
// `webhook-id + "." + webhook-timestamp + "." + raw body` keyed with the base64-decoded part of the
// `whsec_...` webhook secret; `webhook-timestamp` must be within 5 minutes of our clock.

/** Headers as any Node server hands them over: a Fetch `Headers`, node:http's `request.headers`, a plain object. */
export type WebhookHeaders =
  Headers | Record<string, string | string[] | undefined> | { get(name: string): string | null };

export type VerifyOptions = {
  /** Seconds a `webhook-timestamp` may be away from the clock, either side. 300 (5 minutes) by default. */
  toleranceSeconds?: number;
  /** The clock, for tests. */
  now?: () => Date;
};

export const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretKey(webhookSecret: string): Buffer {
  const base64 = webhookSecret.startsWith('whsec_') ? webhookSecret.slice('whsec_'.length) : webhookSecret;
  const key = Buffer.from(base64, 'base64');
  if (key.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    throw new TypeError(
      'The webhook secret is "whsec_" followed by base64 (the console\'s Access key page).',
    );
  }
  return key;
}

const rawText = (body: string | Uint8Array) =>
  typeof body === 'string'
    ? Buffer.from(body, 'utf8')
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);

/** The `webhook-signature` value of a callback: `v1,` + base64 HMAC-SHA256 (what Paydesk sends). */
export function signWebhook(
  webhookSecret: string,
  parts: { id: string; timestamp: number | string; body: string | Uint8Array },
): string {
  const mac = createHmac('sha256', secretKey(webhookSecret));
  mac.update(`${parts.id}.${parts.timestamp}.`, 'utf8');
  mac.update(rawText(parts.body));
  return `v1,${mac.digest('base64')}`;
}

/**
 * Checks a callback and answers its event; throws `PaydeskWebhookVerificationError` when anything is off
 * (answer the callback with 400 or 401 then: Paydesk retries it). `rawBody` is the body exactly as
 * received (before any JSON parsing); `webhookSecret` is the whole `whsec_...` value of the key's mode.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  webhookSecret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new PaydeskWebhookVerificationError(
      'Missing webhook-id, webhook-timestamp or webhook-signature header.',
    );
  }
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new PaydeskWebhookVerificationError('The webhook-timestamp header is not unix seconds.');
  }
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new PaydeskWebhookVerificationError('The webhook-timestamp is too far from our clock (a replay?).');
  }
  const expected = Buffer.from(
    signWebhook(webhookSecret, { id, timestamp, body: rawBody }).slice(3),
    'base64',
  );
  let matched = false;
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    // Constant time; every candidate is compared, a match or not.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new PaydeskWebhookVerificationError('No webhook-signature matches the body.');
  try {
    return JSON.parse(rawText(rawBody).toString('utf8')) as WebhookEvent;
  } catch {
    throw new PaydeskWebhookVerificationError('The callback body is not JSON.');
  }
}
