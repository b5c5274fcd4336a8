import { describe, expect, it } from 'vitest';
import {
  canonicalRequest,
  checkTimestamp,
  isValidNonce,
  signRequest,
  verifyRequestSignature,
} from './gateway-signature.ts';

// The expected hex below was computed outside this code, with openssl in a shell (and cross-checked with
// python3's hmac/hashlib), from the same bytes:
//   EMPTY=$(printf '' | openssl dgst -sha256 -r | cut -d' ' -f1)
//   printf 'GET\n/gateway/v1/collections?out_trade_no=ORD-20240501-0001&page=2\n1714550400\nn0nce-0123456789abcdef\n%s' "$EMPTY" \
//     | openssl dgst -sha256 -hmac 'sk_live_Zp4f8Qw2Xr9Tb6Lm'
//   printf '%s' "$CHINESE_BODY" | openssl dgst -sha256            # 97 bytes: 6 Chinese characters, 3 bytes each
//   printf 'POST\n/gateway/v1/collections\n1714550460\nAbC_def-0123456789xyz\n%s' "$BODY_HASH" \
//     | openssl dgst -sha256 -hmac 'sk_live_Zp4f8Qw2Xr9Tb6Lm'
const SECRET = 'sk_live_Zp4f8Qw2Xr9Tb6Lm';
const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const GET_PARTS = {
  method: 'GET',
  pathWithQuery: '/gateway/v1/collections?out_trade_no=ORD-20240501-0001&page=2',
  timestamp: '1714550400',
  nonce: 'n0nce-0123456789abcdef',
  body: '',
};
const GET_SIGNATURE = '33d690dd0dc29ac1b5d44c7078afa77c1774db7e306d4005621b66c5c77f3d95';

const CHINESE_BODY =
  '{"out_trade_no":"ORD-20240501-0002","amount":"88.80","payer_name":"张三","note":"测试订单"}';
const CHINESE_BODY_SHA256 = '278a913156a0ef1ab18b5aa09761755d9eef9b2899f117c33842b62b8353157c';
const POST_PARTS = {
  method: 'POST',
  pathWithQuery: '/gateway/v1/collections',
  timestamp: '1714550460',
  nonce: 'AbC_def-0123456789xyz',
  body: CHINESE_BODY,
};
const POST_SIGNATURE = 'c938de4e10f78769d3668726658af37de0a1319e97ef3a0853712f014b3bfcff';

describe('the canonical request', () => {
  it('is method, path with query, timestamp, nonce and the body hash, one per line', () => {
    expect(canonicalRequest(GET_PARTS)).toBe(
      'GET\n/gateway/v1/collections?out_trade_no=ORD-20240501-0001&page=2\n1714550400\n' +
        `n0nce-0123456789abcdef\n${EMPTY_BODY_SHA256}`,
    );
    expect(canonicalRequest(POST_PARTS).split('\n')[4]).toBe(CHINESE_BODY_SHA256);
  });

  it('hashes an absent body as the empty string and upper-cases the method', () => {
    const { body: _body, ...withoutBody } = GET_PARTS;
    expect(canonicalRequest({ ...withoutBody, method: 'get' })).toBe(canonicalRequest(GET_PARTS));
    expect(canonicalRequest({ ...GET_PARTS, body: null })).toBe(canonicalRequest(GET_PARTS));
  });

  it('hashes raw body bytes the same as the text they encode', () => {
    const bytes = new TextEncoder().encode(CHINESE_BODY);
    expect(bytes.length).toBe(97);
    expect(canonicalRequest({ ...POST_PARTS, body: bytes })).toBe(canonicalRequest(POST_PARTS));
    expect(canonicalRequest({ ...POST_PARTS, body: Buffer.from(CHINESE_BODY) })).toBe(
      canonicalRequest(POST_PARTS),
    );
  });
});

describe('signing a gateway request', () => {
  it('matches the openssl vector for a GET with a query and an empty body', () => {
    expect(signRequest(SECRET, GET_PARTS)).toBe(GET_SIGNATURE);
    expect(verifyRequestSignature(SECRET, GET_PARTS, GET_SIGNATURE)).toBe(true);
  });

  it('matches the openssl vector for a POST whose JSON body holds Chinese characters (UTF-8)', () => {
    expect(signRequest(SECRET, POST_PARTS)).toBe(POST_SIGNATURE);
    expect(verifyRequestSignature(SECRET, POST_PARTS, POST_SIGNATURE)).toBe(true);
    expect(
      verifyRequestSignature(
        SECRET,
        { ...POST_PARTS, method: 'post', timestamp: 1714550460 },
        POST_SIGNATURE,
      ),
    ).toBe(true);
  });

  it('fails with a wrong secret, a changed body, path, query, timestamp, nonce or method', () => {
    expect(verifyRequestSignature('sk_live_Zp4f8Qw2Xr9Tb6Ln', POST_PARTS, POST_SIGNATURE)).toBe(false);
    expect(
      verifyRequestSignature(
        SECRET,
        { ...POST_PARTS, body: CHINESE_BODY.replace('88.80', '88.81') },
        POST_SIGNATURE,
      ),
    ).toBe(false);
    expect(verifyRequestSignature(SECRET, { ...POST_PARTS, body: '' }, POST_SIGNATURE)).toBe(false);
    expect(
      verifyRequestSignature(SECRET, { ...POST_PARTS, pathWithQuery: '/gateway/v1/payouts' }, POST_SIGNATURE),
    ).toBe(false);
    expect(
      verifyRequestSignature(
        SECRET,
        { ...GET_PARTS, pathWithQuery: GET_PARTS.pathWithQuery.replace('page=2', 'page=3') },
        GET_SIGNATURE,
      ),
    ).toBe(false);
    expect(verifyRequestSignature(SECRET, { ...POST_PARTS, timestamp: '1714550461' }, POST_SIGNATURE)).toBe(
      false,
    );
    expect(
      verifyRequestSignature(SECRET, { ...POST_PARTS, nonce: 'AbC_def-0123456789xyZ' }, POST_SIGNATURE),
    ).toBe(false);
    expect(verifyRequestSignature(SECRET, { ...POST_PARTS, method: 'PUT' }, POST_SIGNATURE)).toBe(false);
  });

  it('is false, not an exception, for malformed signatures; upper-case hex is the same bytes', () => {
    expect(verifyRequestSignature(SECRET, GET_PARTS, GET_SIGNATURE.toUpperCase())).toBe(true);
    for (const signature of [
      '',
      GET_SIGNATURE.slice(0, 63),
      `${GET_SIGNATURE}0`,
      `${GET_SIGNATURE.slice(0, 63)}g`,
      ` ${GET_SIGNATURE.slice(1)}`,
      `sha256=${GET_SIGNATURE}`,
      Buffer.from(GET_SIGNATURE, 'hex').toString('base64'),
      undefined,
      ['a'],
    ]) {
      expect(verifyRequestSignature(SECRET, GET_PARTS, signature)).toBe(false);
    }
  });
});

describe('the timestamp window', () => {
  const now = 1_714_550_400;

  it('passes 299 and 300 seconds of skew either way and refuses 301', () => {
    for (const skew of [0, 299, 300, -299, -300]) {
      expect(checkTimestamp(String(now + skew), now)).toBe('ok');
    }
    expect(checkTimestamp(String(now + 301), now)).toBe('out_of_window');
    expect(checkTimestamp(String(now - 301), now)).toBe('out_of_window');
  });

  it('ignores the fraction of our clock and honours another window', () => {
    expect(checkTimestamp(String(now - 300), now + 0.999)).toBe('ok');
    expect(checkTimestamp(String(now - 61), now, 60)).toBe('out_of_window');
    expect(checkTimestamp(String(now - 60), now, 60)).toBe('ok');
  });

  it('calls anything but unix seconds in digits malformed; milliseconds are out of the window', () => {
    for (const value of [
      undefined,
      null,
      '',
      ' 1714550400',
      '1714550400.5',
      '-1714550400',
      '+1714550400',
      '1e9',
      'abc',
      ['1714550400'],
      now,
    ]) {
      expect(checkTimestamp(value, now)).toBe('malformed');
    }
    expect(checkTimestamp(String(now * 1000), now)).toBe('out_of_window');
  });
});

describe('the nonce', () => {
  it('takes 16 to 64 characters of letters, digits, "_" and "-"', () => {
    expect(isValidNonce('a'.repeat(16))).toBe(true);
    expect(isValidNonce('Z'.repeat(64))).toBe(true);
    expect(isValidNonce('AbC_def-0123456789xyz')).toBe(true);
    expect(isValidNonce('a'.repeat(15))).toBe(false);
    expect(isValidNonce('a'.repeat(65))).toBe(false);
    expect(isValidNonce('abcdefghijklmno=')).toBe(false);
    expect(isValidNonce('abcdefgh ijklmnop')).toBe(false);
    expect(isValidNonce('abcdefghijklmnop\n')).toBe(false);
    expect(isValidNonce('随机数随机数随机数随机数随机数随机数')).toBe(false);
    expect(isValidNonce(undefined)).toBe(false);
  });
});
