import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

/** A string key is its UTF-8 bytes. A KeyObject (createSecretKey) is the cheapest to use again and again. */
export const hmacHex = (key: KeyObject | Buffer | string, value: string | Buffer): string =>
  createHmac('sha256', key).update(value).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Secrets at rest (TOTP secrets, recovery codes, access key secrets): AES-256-GCM under APP_KEY. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function decrypt(key: Buffer, payload: string): string {
  const [version, iv, tag, body] = payload.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
