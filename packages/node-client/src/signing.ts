import { createHash, createHmac, randomBytes } from 'node:crypto';

// The gateway's request signature (DESIGN 6, and "Authentication" in /gateway/docs).

export type SignedRequest = {
  /** Upper-case HTTP method: `POST`, `GET`. */
  method: string;
  /** The path and query string exactly as sent on the request line: `/gateway/v1/collections?out_trade_no=A-1`. */
  pathWithQuery: string;
  /** Unix seconds, the `X-Timestamp` header's value. */
  timestamp: string | number;
  /** The `X-Nonce` header's value: 16 to 64 characters of `A-Z a-z 0-9 _ -`. */
  nonce: string;
  /** The raw body bytes exactly as sent; empty (or absent) for a request without a body. */
  body?: string | Uint8Array | null;
};

const sha256Hex = (body: string | Uint8Array) => createHash('sha256').update(body).digest('hex');

/** The five lines the signature covers, joined by `\n`. */
export function stringToSign({ method, pathWithQuery, timestamp, nonce, body }: SignedRequest): string {
  return [method.toUpperCase(), pathWithQuery, String(timestamp), nonce, sha256Hex(body ?? '')].join('\n');
}

/**
 * The `X-Signature` header: lowercase hex HMAC-SHA256 of the string to sign, keyed with the secret key's
 * UTF-8 bytes.
 */
export function signRequest(secretKey: string, request: SignedRequest): string {
  return createHmac('sha256', Buffer.from(secretKey, 'utf8'))
    .update(stringToSign(request), 'utf8')
    .digest('hex');
}

/** A fresh nonce: 32 hex characters (128 random bits). */
export const newNonce = (): string => randomBytes(16).toString('hex');

/** The five signing headers of one request. */
export function signingHeaders(
  credentials: { merchantNo: string; accessKey: string; secretKey: string },
  request: Omit<SignedRequest, 'timestamp' | 'nonce'> & { timestamp?: number; nonce?: string },
): Record<string, string> {
  const timestamp = String(request.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = request.nonce ?? newNonce();
  return {
    'X-Merchant-No': credentials.merchantNo,
    'X-Access-Key': credentials.accessKey,
    'X-Timestamp': timestamp,
    'X-Nonce': nonce,
    'X-Signature': signRequest(credentials.secretKey, { ...request, timestamp, nonce }),
  };
}
