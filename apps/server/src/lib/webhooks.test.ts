import { once } from 'node:events';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RESPONSE_EXCERPT_BYTES,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_SPAN_MS,
  deliverWebhook,
  newWebhookSecret,
  retryDelayMs,
  signWebhook,
  webhookHeaders,
} from './webhooks.ts';

// Computed outside this code with openssl from the secret's 32 bytes 00 01 .. 1f:
//   printf '%s' 'evt_01HXYZ.1714550400.{"id":"evt_01HXYZ","type":"collection.paid","data":{"payer_name":"张三"}}' \
//     | openssl dgst -sha256 -mac HMAC -macopt hexkey:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
//       -binary | base64
const VECTOR_SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const VECTOR_BODY = '{"id":"evt_01HXYZ","type":"collection.paid","data":{"payer_name":"张三"}}';
const VECTOR_SIGNATURE = 'v1,/OvL21jn8tH/2378gkPE2hfRLFEMY6xdXGk1PSAz5WM=';

describe('webhook secrets and signatures', () => {
  it('makes secrets of whsec_ and 32 random bytes in base64', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs id.timestamp.body with the decoded secret (the openssl vector, UTF-8 body)', () => {
    expect(
      signWebhook({ id: 'evt_01HXYZ', timestamp: 1714550400, body: VECTOR_BODY, secret: VECTOR_SECRET }),
    ).toBe(VECTOR_SIGNATURE);
    expect(
      webhookHeaders({ id: 'evt_01HXYZ', timestamp: 1714550400, body: VECTOR_BODY, secret: VECTOR_SECRET }),
    ).toEqual({
      'webhook-id': 'evt_01HXYZ',
      'webhook-timestamp': '1714550400',
      'webhook-signature': VECTOR_SIGNATURE,
      'content-type': 'application/json',
    });
  });

  it('changes the signature with the timestamp, the body, the id and the secret', () => {
    const base = { id: 'evt_01HXYZ', timestamp: 1714550400, body: VECTOR_BODY, secret: VECTOR_SECRET };
    for (const changed of [
      { ...base, timestamp: 1714550401 },
      { ...base, body: VECTOR_BODY.replace('张三', '李四') },
      { ...base, id: 'evt_01HXYZ2' },
      { ...base, secret: newWebhookSecret() },
    ]) {
      expect(signWebhook(changed)).not.toBe(VECTOR_SIGNATURE);
    }
  });

  it('refuses a secret that is not whsec_ and base64, rather than signing with a wrong key', () => {
    const base = { id: 'evt_1', timestamp: 1714550400, body: '{}' };
    for (const secret of [
      '',
      'whsec_',
      'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
      'whsec_not base64!',
    ]) {
      expect(() => signWebhook({ ...base, secret })).toThrow(TypeError);
    }
  });
});

describe('the retry schedule', () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  // When each retry is due after the first attempt (DESIGN 6), and so the gaps between attempts.
  const dueAt = [15_000, MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];
  const extended = [...dueAt, 36 * HOUR, 48 * HOUR, 72 * HOUR];
  const gaps = extended.map((at, i) => at - (extended[i - 1] ?? 0));
  const retryTimes = (random: () => number) => {
    const times: number[] = [];
    let elapsed = 0;
    for (let attempt = 1; ; attempt++) {
      const delay = retryDelayMs(attempt, random);
      if (delay === null) return times;
      elapsed += delay;
      times.push(elapsed);
    }
  };

  it('retries at 15 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, 24 h, 36 h, 48 h and 72 h after the first attempt', () => {
    expect(retryTimes(() => 0.5)).toEqual(extended);
    expect(gaps.map((_, i) => retryDelayMs(i + 1, () => 0.5))).toEqual(gaps);
  });

  it('spans 3 days, then gives up after the 13th attempt', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(13);
    expect(WEBHOOK_RETRY_SPAN_MS).toBe(72 * HOUR);
    expect(retryDelayMs(12, () => 0.5)).toBe(24 * HOUR);
    expect(retryDelayMs(13, () => 0.5)).toBeNull();
    expect(retryDelayMs(14, () => 0.5)).toBeNull();
    // With the most jitter either way, the last retry still comes within 3 days ± 10%.
    expect(retryTimes(() => 0).at(-1)).toBe(72 * HOUR * 0.9);
    expect(retryTimes(() => 0.999_999).at(-1)).toBeLessThanOrEqual(72 * HOUR * 1.1);
  });

  it('jitters each gap by up to 10% either way', () => {
    expect(gaps.map((_, i) => retryDelayMs(i + 1, () => 0))).toEqual(gaps.map((ms) => ms * 0.9));
    gaps.forEach((ms, i) => {
      const high = retryDelayMs(i + 1, () => 0.999_999)!;
      expect(high).toBeLessThanOrEqual(ms * 1.1);
      expect(high).toBeGreaterThan(ms * 1.099);
    });
    // Attempt 5 fails 15 min in; the next is due at 1 h: 45 min later, here 5% early.
    expect(retryDelayMs(5, () => 0.25)).toBe(45 * MINUTE * 0.95);
    const real = retryDelayMs(1)!;
    expect(real).toBeGreaterThanOrEqual(13_500);
    expect(real).toBeLessThanOrEqual(16_500);
  });

  it('refuses an attempt number that is not a positive integer', () => {
    for (const attempt of [0, -1, 1.5, Number.NaN]) expect(() => retryDelayMs(attempt)).toThrow(RangeError);
  });
});

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

const listen = async (server: Server, host: string): Promise<number | null> => {
  try {
    server.listen(0, host);
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  } catch {
    return null;
  }
};

const requests: Received[] = [];
let hugeConnectionClosed: Promise<void>;
let closeHuge: () => void;

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    requests.push({
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    switch (req.url) {
      case '/ok':
        res.end('thanks');
        return;
      case '/fail':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error: database down');
        return;
      case '/chinese':
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('测'.repeat(700));
        return;
      case '/redirect':
        res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
        return;
      case '/reset':
        req.socket.destroy();
        return;
      case '/hang':
        return; // never answers
      case '/huge': {
        // 10 MB of answer that never ends: only a client that stops reading gets away promptly.
        res.on('close', closeHuge);
        res.on('error', () => {});
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 10 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        pump();
        return;
      }
      default:
        res.writeHead(404).end();
    }
  });
});
const ipv6Receiver = createServer((req, res) => {
  req.resume().on('end', () => {
    requests.push({ path: req.url ?? '', headers: req.headers, body: '' });
    res.end('thanks over IPv6');
  });
});

let port: number;
// Docker and some CI hosts have no IPv6 loopback; the deliveries that need it are skipped there.
const ipv6Port = await listen(ipv6Receiver, '::1');

beforeAll(async () => {
  port = (await listen(receiver, '127.0.0.1'))!;
});

afterAll(() => {
  for (const server of [receiver, ipv6Receiver]) {
    server.closeAllConnections();
    server.close();
  }
});

beforeEach(() => {
  requests.length = 0;
  hugeConnectionClosed = new Promise((resolve) => (closeHuge = resolve));
});

const secret = newWebhookSecret();
const body = JSON.stringify({
  id: 'evt_01J0000000000000000000',
  type: 'collection.paid',
  created_at: '2024-05-01T08:00:00Z',
  data: { trade_no: 'C20240501000001', amount: '88.80', payer_name: '张三' },
});
const deliver = (path: string, extra: Partial<Parameters<typeof deliverWebhook>[0]> = {}) =>
  deliverWebhook({
    url: `http://127.0.0.1:${port}${path}`,
    id: 'evt_01J0000000000000000000',
    body,
    secret,
    allowPrivate: true,
    ...extra,
  });

describe('delivering a webhook to a real receiver', () => {
  it('is ok on a 200, with the answer as excerpt and the signed JSON POST delivered', async () => {
    const result = await deliver('/ok');
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: 'thanks' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
    const [received] = requests;
    expect(received.body).toBe(body);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['webhook-id']).toBe('evt_01J0000000000000000000');
  });

  it('verifies with the standardwebhooks package; a retry keeps the id and carries a new timestamp and signature', async () => {
    const first = await deliver('/ok', { now: () => new Date(Date.now() - 90_000) });
    const retry = await deliver('/ok');
    expect([first.ok, retry.ok]).toEqual([true, true]);
    expect(requests).toHaveLength(2);
    const verifier = new Webhook(secret);
    for (const { body: raw, headers } of requests) {
      const signed = {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      };
      expect(verifier.verify(raw, signed)).toEqual(JSON.parse(body));
      expect(() => new Webhook(newWebhookSecret()).verify(raw, signed)).toThrow();
      expect(() => verifier.verify(raw.replace('88.80', '88.81'), signed)).toThrow();
    }
    const [a, b] = requests.map((r) => r.headers);
    expect(a['webhook-id']).toBe(b['webhook-id']);
    expect(Number(b['webhook-timestamp']) - Number(a['webhook-timestamp'])).toBeGreaterThanOrEqual(89);
    expect(a['webhook-signature']).not.toBe(b['webhook-signature']);
  });

  it('is not ok on a 500, keeping what the receiver said', async () => {
    expect(await deliver('/fail')).toMatchObject({
      ok: false,
      statusCode: 500,
      error: null,
      responseExcerpt: 'internal error: database down',
    });
  });

  it('cuts the excerpt at 1024 bytes without splitting a character', async () => {
    const result = await deliver('/chinese');
    expect(result.statusCode).toBe(503);
    expect(result.responseExcerpt).toBe('测'.repeat(341)); // 1023 bytes; the 342nd character would not fit
  });

  it('times out a receiver that never answers, after about timeoutMs', async () => {
    const result = await deliver('/hang', { timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout', responseExcerpt: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(190);
    expect(result.latencyMs).toBeLessThan(1_500);
  });

  it('reports a connection the receiver destroys', async () => {
    const result = await deliver('/reset');
    expect(result).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null });
    expect(result.error).toMatch(/ECONNRESET|socket hang up/);
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    const closedPort = (await listen(closed, '127.0.0.1'))!;
    closed.close();
    await once(closed, 'close');
    const result = await deliverWebhook({
      url: `http://127.0.0.1:${closedPort}/`,
      id: 'evt_1',
      body,
      secret,
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('reads only the first 1024 bytes of a 10 MB answer and hangs up at once', async () => {
    const result = await deliver('/huge', { timeoutMs: 10_000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseExcerpt).toBe('x'.repeat(RESPONSE_EXCERPT_BYTES));
    expect(result.latencyMs).toBeLessThan(2_000); // the answer never ends: waiting for it would take 10 s
    await hugeConnectionClosed; // the receiver sees the connection go
  });

  it('does not follow a redirect; a 3xx is a failed attempt', async () => {
    const result = await deliver('/redirect');
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: null });
    expect(requests.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('delivers only over http and https', async () => {
    for (const url of [
      `ftp://127.0.0.1:${port}/ok`,
      'file:///etc/passwd',
      'javascript:alert(1)',
      `ws://127.0.0.1:${port}/ok`,
    ]) {
      expect(await deliverWebhook({ url, id: 'evt_1', body, secret, allowPrivate: true })).toMatchObject({
        ok: false,
        statusCode: null,
        error: 'unsupported scheme',
        responseExcerpt: null,
      });
    }
    expect(
      await deliverWebhook({ url: 'not a url', id: 'evt_1', body, secret, allowPrivate: true }),
    ).toMatchObject({
      ok: false,
      error: 'invalid url',
    });
    expect(requests).toEqual([]);
  });

  it('reports a malformed secret without sending anything', async () => {
    expect(await deliver('/ok', { secret: 'not-a-secret' })).toMatchObject({
      ok: false,
      error: 'invalid webhook secret',
    });
    expect(requests).toEqual([]);
  });

  it('reports a header value Node refuses to send, instead of throwing', async () => {
    const result = await deliver('/ok', { id: 'evt_1\r\nx-injected: 1' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/invalid character/i);
    expect(requests).toEqual([]);
  });
});

describe('the private-address guard', () => {
  it('refuses loopback targets unless allowPrivate, before connecting', async () => {
    const refused = await deliver('/ok', { allowPrivate: false });
    expect(refused).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'address not allowed: 127.0.0.1 is loopback',
      responseExcerpt: null,
    });
    expect(await deliver('/ok', { url: `http://[::1]:${port}/ok`, allowPrivate: false })).toMatchObject({
      error: 'address not allowed: ::1 is loopback',
    });
    // The URL parser reads 2130706433 and 0x7f.1 as 127.0.0.1, so these spellings are caught too.
    for (const host of ['2130706433', '0x7f.1', 'localhost']) {
      const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
      expect(
        await deliver('/ok', { url: `http://${host}:${port}/ok`, allowPrivate: false, lookup }),
      ).toMatchObject({
        error: 'address not allowed: 127.0.0.1 is loopback',
      });
    }
    expect(requests).toEqual([]);
  });

  it('refuses a host name that resolves to a private address (10.x)', async () => {
    const lookup = vi.fn(async () => [{ address: '10.20.30.40', family: 4 }]);
    const result = await deliver('/ok', {
      url: 'https://hooks.merchant.test/notify',
      allowPrivate: false,
      lookup,
    });
    expect(result).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'address not allowed: 10.20.30.40 is private',
    });
    expect(lookup).toHaveBeenCalledWith('hooks.merchant.test');
  });

  it('refuses a host name that resolves to any special-use address, IPv4-mapped private ones too', async () => {
    const answers: Record<string, string> = {
      '198.18.0.1': 'address not allowed: 198.18.0.1 is reserved',
      '192.0.0.8': 'address not allowed: 192.0.0.8 is reserved',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2':
        'address not allowed: 2001:0:4136:e378:8000:63bf:3fff:fdd2 is teredo',
      '64:ff9b:1::a00:1': 'address not allowed: 64:ff9b:1::a00:1 is rfc6052',
      '::ffff:10.0.0.1': 'address not allowed: ::ffff:10.0.0.1 is private',
    };
    for (const [address, error] of Object.entries(answers)) {
      const lookup = vi.fn(async () => [{ address, family: address.includes(':') ? 6 : 4 }]);
      const url = `http://hooks.merchant.test:${port}/ok`;
      expect(await deliver('/ok', { url, allowPrivate: false, lookup, timeoutMs: 1_000 })).toMatchObject({
        ok: false,
        statusCode: null,
        error,
      });
      expect(lookup).toHaveBeenCalledTimes(1);
    }
  });

  it('refuses an IPv4-mapped IPv6 loopback, whether in the URL or from DNS', async () => {
    const lookup = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    expect(
      await deliver('/ok', { url: `http://rebind.test:${port}/ok`, allowPrivate: false, lookup }),
    ).toMatchObject({
      error: 'address not allowed: ::ffff:127.0.0.1 is loopback',
    });
    // The URL parser already rewrites [::ffff:127.0.0.1] to [::ffff:7f00:1].
    expect(
      await deliver('/ok', { url: `http://[::ffff:127.0.0.1]:${port}/ok`, allowPrivate: false }),
    ).toMatchObject({
      error: 'address not allowed: ::ffff:7f00:1 is loopback',
    });
    expect(requests).toEqual([]);
  });

  it('refuses when any resolved address is private, even if another is public', async () => {
    const lookup = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    expect(
      await deliver('/ok', { url: 'http://metadata.merchant.test/', allowPrivate: false, lookup }),
    ).toMatchObject({
      error: 'address not allowed: 169.254.169.254 is link-local',
    });
  });

  it('reports DNS failures, a lookup with no address and a lookup slower than the timeout', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    expect(
      await deliver('/ok', { url: 'http://nowhere.test/', lookup: () => Promise.reject(notFound) }),
    ).toMatchObject({ ok: false, statusCode: null, error: 'getaddrinfo ENOTFOUND nowhere.test' });
    expect(await deliver('/ok', { url: 'http://empty.test/', lookup: async () => [] })).toMatchObject({
      error: 'dns lookup found no address for empty.test',
    });
    const slow = await deliver('/ok', {
      url: 'http://slow.test/',
      timeoutMs: 100,
      lookup: () => new Promise(() => {}),
    });
    expect(slow).toMatchObject({ ok: false, error: 'timeout' });
  });

  it('allows loopback with allowPrivate: 127.0.0.1 and ::ffff:127.0.0.1', async () => {
    expect(await deliver('/ok')).toMatchObject({ ok: true });
    const mapped = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    expect(await deliver('/ok', { url: `http://mapped.test:${port}/ok`, lookup: mapped })).toMatchObject({
      ok: true,
    });
  });

  it.skipIf(ipv6Port === null)('allows ::1 with allowPrivate', async () => {
    expect(await deliver('/', { url: `http://[::1]:${ipv6Port}/` })).toMatchObject({
      ok: true,
      responseExcerpt: 'thanks over IPv6',
    });
  });

  it('connects to the address it checked: a second DNS answer cannot swap it (rebinding)', async () => {
    const answers = [[{ address: '127.0.0.1', family: 4 }], [{ address: '10.255.255.1', family: 4 }]];
    const lookup = vi.fn(async () => answers.shift() ?? []);
    const result = await deliver('/ok', { url: `http://rebind.test:${port}/ok`, lookup, timeoutMs: 2_000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(requests.map((r) => r.headers.host)).toEqual([`rebind.test:${port}`]);
  });
});
