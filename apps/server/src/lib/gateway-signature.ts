import type { KeyObject } from 'node:crypto';
import { hmacHex, safeEqual, sha256Hex } from './crypto.ts';

/** What a gateway call's signature covers (DESIGN 6); `body` is the raw request body, absent when empty. */
export type SignedRequestParts = {
  method: string;
  pathWithQuery: string;
  timestamp: string | number;
  nonce: string;
  body?: string | Uint8Array | null;
};

export type TimestampCheck = 'ok' | 'malformed' | 'out_of_window';

/** The X-Timestamp window (seconds either side of our clock) from DESIGN 6. */
export const TIMESTAMP_WINDOW_SECONDS = 300;

const SIGNATURE = /^[0-9a-f]{64}$/i;
const TIMESTAMP = /^\d{1,15}$/;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** METHOD, path with query, timestamp, nonce and hex SHA-256 of the raw body bytes, joined by "\n". */
export function canonicalRequest({
  method,
  pathWithQuery,
  timestamp,
  nonce,
  body,
}: SignedRequestParts): string {
  const bodyHash = sha256Hex(body == null ? '' : typeof body === 'string' ? body : toBuffer(body));
  return [method.toUpperCase(), pathWithQuery, String(timestamp), nonce, bodyHash].join('\n');
}

/**
 * The X-Signature a caller sends: lowercase hex HMAC-SHA256 of the canonical request, keyed with the
 * secret's UTF-8 (a string, or that string as a KeyObject made once with createSecretKey).
 */
export function signRequest(secret: string | KeyObject, parts: SignedRequestParts): string {
  return hmacHex(secret, canonicalRequest(parts));
}

/**
 * Whether `signature` is the request's signature, compared in constant time. Anything but 64 hex digits
 * is false; upper-case hex is accepted, as it carries the same bytes.
 */
export function verifyRequestSignature(
  secret: string | KeyObject,
  parts: SignedRequestParts,
  signature: unknown,
): boolean {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
  return safeEqual(signRequest(secret, parts), signature.toLowerCase());
}

/** Checks an X-Timestamp header (unix seconds, digits only) against our clock: within the window either side. */
export function checkTimestamp(
  headerValue: unknown,
  nowSeconds: number,
  windowSeconds = TIMESTAMP_WINDOW_SECONDS,
): TimestampCheck {
  if (typeof headerValue !== 'string' || !TIMESTAMP.test(headerValue)) return 'malformed';
  const skew = Math.abs(Math.floor(nowSeconds) - Number(headerValue));
  return skew <= windowSeconds ? 'ok' : 'out_of_window';
}

/** Whether an X-Signature header has the form of a signature: 64 hex digits. */
export function isWellFormedSignature(value: unknown): value is string {
  return typeof value === 'string' && SIGNATURE.test(value);
}

/** Whether an X-Nonce header has the accepted shape: 16 to 64 characters of A-Z, a-z, 0-9, "_" and "-". */
export function isValidNonce(value: unknown): value is string {
  return typeof value === 'string' && NONCE.test(value);
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
