import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CALLBACK_RETRY_DELAYS,
  CALLBACK_VERIFICATION_EXAMPLES,
  CALLBACK_WORKED_EXAMPLE,
  CLIENT_LIBRARY_EXAMPLES,
  CREATE_COLLECTION_CODE_SAMPLES,
  EMPTY_BODY_SHA256,
  EXAMPLE_PLACEHOLDERS,
  EXAMPLE_REQUEST,
  GATEWAY_API_DESCRIPTION,
  SIGNING_EXAMPLES,
  SIGNING_WORKED_EXAMPLE,
} from './gateway-docs.ts';
import { retryDelayMs, WEBHOOK_MAX_ATTEMPTS } from '../../lib/webhooks.ts';

// The examples in the reference are run here, against a server that checks the gateway's signature
// rule (DESIGN section 6), implemented again below independently of the examples.

const has = (command: string) => spawnSync(command, ['-version'], { stdio: 'ignore' }).error === undefined;
const HAS_PHP = has('php');
const HAS_JAVAC = has('javac') && has('java');

// Child processes must reach 127.0.0.1 directly, whatever proxy this machine is configured with.
const CHILD_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name)),
);

// ---- The signature rule, as the gateway applies it

const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

function expectedSignature(secret: string, lines: [string, string, string, string, Buffer | string]): string {
  const [method, pathWithQuery, timestamp, nonce, body] = lines;
  const stringToSign = `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${sha256Hex(body)}`;
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(stringToSign, 'utf8').digest('hex');
}

type Account = { merchantNo: string; accessKey: string; secret: string };
type Verdict = { status: number; code: string };
type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string; verdict: Verdict };

function checkRequest(
  account: Account,
  seenNonces: Set<string>,
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Verdict {
  const header = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : '');
  const timestamp = header('x-timestamp');
  const nonce = header('x-nonce');
  const signature = header('x-signature');
  if (header('x-merchant-no') !== account.merchantNo || header('x-access-key') !== account.accessKey) {
    return { status: 401, code: 'unknown_key' };
  }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    return { status: 401, code: 'timestamp_out_of_window' };
  }
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return { status: 401, code: 'signature_invalid' };
  if (seenNonces.has(nonce)) return { status: 401, code: 'nonce_reused' };
  if (!/^[0-9a-f]{64}$/.test(signature)) return { status: 401, code: 'signature_invalid' };
  const expected = expectedSignature(account.secret, [method, url, timestamp, nonce, body]);
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
    return { status: 401, code: 'signature_invalid' };
  }
  seenNonces.add(nonce);
  if (body.length > 0 && !/^application\/json\b/.test(header('content-type'))) {
    return { status: 415, code: 'unsupported_media_type' };
  }
  return { status: 201, code: 'created' };
}

/** A stand-in for the gateway: checks the five headers and the signature, answers 201 with a collection. */
async function startGateway(account: Account) {
  const received: Received[] = [];
  const seenNonces = new Set<string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = request.method ?? '';
      const url = request.url ?? '';
      const verdict = checkRequest(account, seenNonces, method, url, request.headers, body);
      received.push({ method, url, headers: request.headers, body: body.toString('utf8'), verdict });
      response.writeHead(verdict.status, { 'content-type': 'application/json' });
      if (verdict.status !== 201) {
        response.end(JSON.stringify({ message: 'Refused by the test gateway.', code: verdict.code }));
        return;
      }
      const order = JSON.parse(body.toString('utf8')) as { out_trade_no: string; amount: string };
      response.end(
        JSON.stringify({
          data: {
            trade_no: 'C20260101000000000042',
            out_trade_no: order.out_trade_no,
            status: 'to_be_paid',
            amount: order.amount,
            currency: 'CNY',
            pay_url: `http://127.0.0.1/sandbox/pay/C20260101000000000042`,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received, close: () => server.close() };
}

// ---- Running the examples

type Run = { code: number | null; stdout: string; stderr: string };

function run(command: string, args: string[], cwd: string, timeoutMs = 45_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The example with its placeholders replaced; each must appear exactly once, in its declaration. */
function fill(example: string, values: Partial<Record<keyof typeof EXAMPLE_PLACEHOLDERS, string>>): string {
  let filled = example;
  for (const [name, value] of Object.entries(values)) {
    const placeholder = EXAMPLE_PLACEHOLDERS[name as keyof typeof EXAMPLE_PLACEHOLDERS];
    expect(filled.split(placeholder).length - 1, `${name} (${placeholder}) appears once`).toBe(1);
    filled = filled.split(placeholder).join(value);
  }
  return filled;
}

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'gateway-docs-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

const account: Account = {
  merchantNo: 'M900042',
  accessKey: `ak_${randomBytes(10).toString('hex')}`,
  secret: randomBytes(24).toString('base64url'),
};

describe('signing examples, run against a server that checks the signature', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway(account);
  });
  afterAll(() => gateway.close());
  beforeEach(() => {
    gateway.received.length = 0;
  });

  const filled = (language: keyof typeof SIGNING_EXAMPLES, secret = account.secret) =>
    fill(SIGNING_EXAMPLES[language], {
      BASE_URL: gateway.baseUrl,
      MERCHANT_NO: account.merchantNo,
      ACCESS_KEY: account.accessKey,
      SECRET_KEY: secret,
    });

  /** Two runs: each is accepted, and each used a fresh nonce. */
  async function expectAcceptedTwice(runOnce: () => Promise<Run>) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await runOnce();
      const last = gateway.received.at(-1);
      expect(last?.verdict, `${result.stdout}\n${result.stderr}`).toEqual({ status: 201, code: 'created' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('C20260101000000000042');
      expect(result.stdout).toContain('201');
    }
    expect(gateway.received).toHaveLength(2);
    const [first, second] = gateway.received;
    for (const request of [first, second]) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/gateway/v1/collections');
      // The very bytes the reference shows, so the hash the example computed is the body's.
      expect(request.body).toBe(EXAMPLE_REQUEST.body);
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      expect(request.headers['x-nonce']).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    }
    expect(first.headers['x-nonce']).not.toBe(second.headers['x-nonce']);
  }

  it.each(Object.keys(SIGNING_EXAMPLES) as Array<keyof typeof SIGNING_EXAMPLES>)(
    'the %s example declares BASE_URL, MERCHANT_NO, ACCESS_KEY and SECRET_KEY at its top',
    (language) => {
      const top = SIGNING_EXAMPLES[language].split('\n').slice(0, 20).join('\n');
      for (const name of ['BASE_URL', 'MERCHANT_NO', 'ACCESS_KEY', 'SECRET_KEY'] as const) {
        const value = EXAMPLE_PLACEHOLDERS[name];
        expect(top).toMatch(new RegExp(String.raw`\b${name}\s*=\s*["']${value.replace(/[.]/g, '\\.')}["']`));
      }
    },
  );

  it('runs the curl example (bash + curl + openssl)', async () => {
    const file = path.join(workDir, 'create-collection.sh');
    writeFileSync(file, filled('curl'));
    await expectAcceptedTwice(() => run('bash', [file], workDir));
  });

  it('runs the Node example', async () => {
    const file = path.join(workDir, 'create-collection.mjs');
    writeFileSync(file, filled('node'));
    await expectAcceptedTwice(() => run(process.execPath, [file], workDir));
  });

  it('runs the Python example (standard library only)', async () => {
    const file = path.join(workDir, 'create_collection.py');
    writeFileSync(file, filled('python'));
    await expectAcceptedTwice(() => run('python3', [file], workDir));
  });

  it.skipIf(!HAS_PHP)(
    HAS_PHP ? 'runs the PHP example' : 'runs the PHP example (skipped: php is not installed on this machine)',
    async () => {
      const file = path.join(workDir, 'create_collection.php');
      writeFileSync(file, filled('php'));
      await expectAcceptedTwice(() => run('php', [file], workDir));
    },
  );

  it.skipIf(!HAS_JAVAC)(
    HAS_JAVAC ? 'runs the Java example' : 'runs the Java example (skipped: javac/java are not installed)',
    async () => {
      const dir = mkdtempSync(path.join(workDir, 'java-'));
      writeFileSync(path.join(dir, 'CreateCollection.java'), filled('java'));
      const compiled = await run('javac', ['-encoding', 'UTF-8', '-d', dir, 'CreateCollection.java'], dir);
      expect(compiled.code, compiled.stderr).toBe(0);
      await expectAcceptedTwice(() => run('java', ['-cp', dir, 'CreateCollection'], dir));
    },
    90_000,
  );

  it('fails visibly with a wrong secret: the checking server is not a rubber stamp', async () => {
    const wrong = `${account.secret}x`;
    const files = {
      node: path.join(workDir, 'wrong-secret.mjs'),
      curl: path.join(workDir, 'wrong-secret.sh'),
      python: path.join(workDir, 'wrong_secret.py'),
    };
    writeFileSync(files.node, filled('node', wrong));
    writeFileSync(files.curl, filled('curl', wrong));
    writeFileSync(files.python, filled('python', wrong));
    const results = [
      await run(process.execPath, [files.node], workDir),
      await run('bash', [files.curl], workDir),
      await run('python3', [files.python], workDir),
    ];
    for (const result of results) {
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('signature_invalid');
    }
    expect(gateway.received.map((request) => request.verdict.code)).toEqual([
      'signature_invalid',
      'signature_invalid',
      'signature_invalid',
    ]);
  });
});

// ---- Callbacks

const WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

function signCallback(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

const callbackBody = (id: string, amount = '100.00') =>
  JSON.stringify({
    id,
    type: 'collection.paid',
    created_at: new Date().toISOString(),
    data: { trade_no: 'C20260101000000000042', out_trade_no: 'ORDER-1001', status: 'paid', amount },
  });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a callback receiver example and resolves once it listens. */
async function startReceiver(command: string, file: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(command, [file], {
    env: { ...CHILD_ENV, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const waitFor = async (text: string, count = 1) => {
    const deadline = Date.now() + 15_000;
    while (stdout.split(text).length - 1 < count) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`Waited for "${text}" x${count}.\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await waitFor('Listening on port');
  const post = async (headers: Record<string, string>, body: string, urlPath = '/paydesk/callbacks') =>
    (
      await fetch(`http://127.0.0.1:${port}${urlPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      })
    ).status;
  return { post, waitFor, stdout: () => stdout, stop: () => child.kill() };
}

/** What a receiver must do: accept a good callback once, acknowledge its retries, refuse forgeries. */
async function exerciseReceiver(receiver: Awaited<ReturnType<typeof startReceiver>>) {
  const id = `evt_${randomBytes(8).toString('hex')}`;
  const body = callbackBody(id);
  const timestamp = nowSeconds();
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signCallback(WEBHOOK_SECRET, id, timestamp, body),
  };
  // The standard's own library accepts what this test signs: the rule is Standard Webhooks'.
  expect(new Webhook(WEBHOOK_SECRET).verify(body, headers)).toMatchObject({ id, type: 'collection.paid' });

  expect(await receiver.post(headers, body)).toBe(204);
  await receiver.waitFor('handled collection.paid ORDER-1001 paid');

  // A retry: same id and body, a later attempt with its own timestamp and signature.
  const retryTimestamp = String(Number(timestamp) + 15);
  const retry = {
    'webhook-id': id,
    'webhook-timestamp': retryTimestamp,
    'webhook-signature': signCallback(WEBHOOK_SECRET, id, retryTimestamp, body),
  };
  expect(await receiver.post(retry, body)).toBe(204);
  await receiver.waitFor(`duplicate ${id}`);

  // Tampered: the amount changed after signing.
  const tamperedId = `evt_${randomBytes(8).toString('hex')}`;
  const original = callbackBody(tamperedId, '100.00');
  const signedOriginal = {
    'webhook-id': tamperedId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signCallback(WEBHOOK_SECRET, tamperedId, timestamp, original),
  };
  expect(await receiver.post(signedOriginal, original.replace('"100.00"', '"1.00"'))).toBe(401);
  // A whitespace change is a change too: the raw bytes are what is signed.
  expect(await receiver.post(signedOriginal, `${original} `)).toBe(401);
  // The id is covered: the same signature under another id fails.
  expect(await receiver.post({ ...signedOriginal, 'webhook-id': `${tamperedId}x` }, original)).toBe(401);
  // Signed with another secret.
  const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
  expect(
    await receiver.post(
      { ...signedOriginal, 'webhook-signature': signCallback(otherSecret, tamperedId, timestamp, original) },
      original,
    ),
  ).toBe(401);
  // A correctly signed but old callback (a replay from 10 minutes ago).
  const old = String(Number(timestamp) - 600);
  expect(
    await receiver.post(
      {
        ...signedOriginal,
        'webhook-timestamp': old,
        'webhook-signature': signCallback(WEBHOOK_SECRET, tamperedId, old, original),
      },
      original,
    ),
  ).toBe(401);
  // No signature at all.
  const { 'webhook-signature': _omitted, ...unsigned } = signedOriginal;
  expect(await receiver.post(unsigned, original)).toBe(401);

  // Several signatures (secret rotation): one matching is enough.
  const rotatedId = `evt_${randomBytes(8).toString('hex')}`;
  const rotatedBody = callbackBody(rotatedId);
  const rotated = {
    'webhook-id': rotatedId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `${signCallback(otherSecret, rotatedId, timestamp, rotatedBody)} ${signCallback(WEBHOOK_SECRET, rotatedId, timestamp, rotatedBody)}`,
  };
  expect(await receiver.post(rotated, rotatedBody)).toBe(204);
  await receiver.waitFor('handled collection.paid ORDER-1001 paid', 2);

  // Only the two genuine events were handled, each once; nothing forged got through.
  expect(receiver.stdout().split('handled ').length - 1).toBe(2);
  expect(receiver.stdout()).not.toContain(tamperedId);
}

describe('callback verification examples, run against callbacks signed by hand', () => {
  it('runs the Node receiver', async () => {
    const file = path.join(workDir, 'paydesk-callbacks.mjs');
    writeFileSync(file, fill(CALLBACK_VERIFICATION_EXAMPLES.node, { WEBHOOK_SECRET }));
    const receiver = await startReceiver(process.execPath, file);
    try {
      await exerciseReceiver(receiver);
    } finally {
      receiver.stop();
    }
  }, 30_000);

  it('runs the Python receiver (standard library only)', async () => {
    const file = path.join(workDir, 'paydesk_callbacks.py');
    writeFileSync(file, fill(CALLBACK_VERIFICATION_EXAMPLES.python, { WEBHOOK_SECRET }));
    const receiver = await startReceiver('python3', file);
    try {
      await exerciseReceiver(receiver);
    } finally {
      receiver.stop();
    }
  }, 30_000);
});

// ---- The sample files

const SAMPLES_DIR = fileURLToPath(new URL('./docs/samples/', import.meta.url));
/** How each kind of sample file is checked without running it. */
const SYNTAX_CHECK: Record<string, { command: string; args: (file: string) => string[]; present: boolean }> =
  {
    '.sh': { command: 'bash', args: (file) => ['-n', file], present: true },
    '.mjs': { command: process.execPath, args: (file) => ['--check', file], present: true },
    '.py': {
      command: 'python3',
      args: (file) => ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])', file],
      present: true,
    },
    '.php': { command: 'php', args: (file) => ['-l', file], present: HAS_PHP },
    '.java': {
      command: 'javac',
      args: (file) => ['-encoding', 'UTF-8', '-d', workDir, file],
      present: HAS_JAVAC,
    },
  };

describe('the sample files (docs/samples)', () => {
  const files = readdirSync(SAMPLES_DIR).sort();

  it('are the examples of the reference, each file once', () => {
    const examples = [
      ...Object.values(SIGNING_EXAMPLES),
      ...Object.values(CALLBACK_VERIFICATION_EXAMPLES),
      ...Object.values(CLIENT_LIBRARY_EXAMPLES),
    ];
    expect(files.map((name) => readFileSync(path.join(SAMPLES_DIR, name), 'utf8')).sort()).toEqual(
      examples.sort(),
    );
  });

  it.each(files)('%s is well-formed', async (name) => {
    const check = SYNTAX_CHECK[path.extname(name)];
    expect(check, `a syntax check for ${name}`).toBeDefined();
    if (!check!.present) return;
    const result = await run(check!.command, check!.args(path.join(SAMPLES_DIR, name)), workDir);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  });

  it('a broken sample fails its check', async () => {
    for (const [name, text] of [
      ['broken.mjs', 'const = 1;'],
      ['broken.py', 'def f(:\n'],
      ['broken.sh', 'if then fi'],
    ]) {
      const file = path.join(workDir, name);
      writeFileSync(file, text);
      const check = SYNTAX_CHECK[path.extname(name)]!;
      expect((await run(check.command, check.args(file), workDir)).code, name).not.toBe(0);
    }
  });
});

// ---- The reference text

describe('GATEWAY_API_DESCRIPTION', () => {
  const doc = GATEWAY_API_DESCRIPTION;

  it('lists the five headers with their rules', () => {
    expect(doc).toMatch(/^- `X-Merchant-No`: /m);
    expect(doc).toMatch(/^- `X-Access-Key`: /m);
    expect(doc).toMatch(/^- `X-Timestamp`: .*unix seconds.*300 seconds/m);
    expect(doc).toMatch(/^- `X-Nonce`: .*16 to 64.*A-Z a-z 0-9 _ -.*10 minutes/m);
    expect(doc).toMatch(/^- `X-Signature`: .*lowercase hex/m);
    expect(doc).toContain('METHOD\nPATH_WITH_QUERY\nTIMESTAMP\nNONCE\nhex(sha256(raw body))');
    expect(doc).toMatch(/HMAC-SHA256, keyed with your \*\*secret key\*\* \(its UTF-8 bytes\)/);
    expect(doc).toContain('An empty whitelist refuses every call');
  });

  it('explains the two keys and livemode, and its examples use a test key (DESIGN 12)', () => {
    const section = doc.slice(doc.indexOf('## Live and test mode'), doc.indexOf('## Authentication'));
    expect(section).toContain('`test_`');
    expect(section).toContain('`live_`');
    expect(section).toMatch(/\*\*`livemode`\*\* is on every object the gateway answers and every callback/);
    expect(section).toMatch(/test key asking for a live order .* gets\s+\*\*404\*\*/s);
    expect(section).toContain('422 `channel_unavailable`');
    for (const example of Object.values(SIGNING_EXAMPLES)) {
      expect(example).toContain(EXAMPLE_PLACEHOLDERS.ACCESS_KEY);
    }
    expect(EXAMPLE_PLACEHOLDERS.ACCESS_KEY).toMatch(/^test_/);
  });

  it('has a worked signing example that is right', () => {
    const w = SIGNING_WORKED_EXAMPLE;
    expect(sha256Hex(w.body)).toBe(w.bodySha256);
    expect(expectedSignature(w.secret, [w.method, w.pathWithQuery, w.timestamp, w.nonce, w.body])).toBe(
      w.signature,
    );
    expect(EMPTY_BODY_SHA256).toBe(sha256Hex(''));
    expect(doc).toContain(`\`${w.signature}\``);
    expect(doc).toContain(`${w.method}\n${w.pathWithQuery}\n${w.timestamp}\n${w.nonce}\n${w.bodySha256}`);
  });

  it('has a worked callback example that the Standard Webhooks library agrees with', () => {
    const c = CALLBACK_WORKED_EXAMPLE;
    expect(signCallback(c.webhookSecret, c.id, c.timestamp, c.body)).toBe(c.signature);
    expect(new Webhook(c.webhookSecret).sign(c.id, new Date(Number(c.timestamp) * 1000), c.body)).toBe(
      c.signature,
    );
    expect(doc).toContain(c.signature);
    expect(doc).toContain(c.body);
  });

  it.each([
    ['401', 'signature_invalid'],
    ['401', 'timestamp_out_of_window'],
    ['401', 'nonce_reused'],
    ['401', 'unknown_key'],
    ['403', 'ip_not_allowed'],
    ['403', 'merchant_disabled'],
    ['404', 'not_found'],
    ['409', 'out_trade_no_taken'],
    ['415', 'unsupported_media_type'],
    ['422', 'validation_failed'],
    ['422', 'channel_unavailable'],
    ['422', 'insufficient_funds'],
    ['429', 'throttled'],
  ])('has the error %s %s in its table', (status, code) => {
    expect(doc).toMatch(new RegExp(`^\\| ${status} \`${code}\` \\| .+ \\|$`, 'm'));
  });

  it('says the 409 answer carries the existing trade_no, and 429 carries Retry-After', () => {
    expect(doc).toMatch(/\| 409 `out_trade_no_taken` \| .*carries that order's `trade_no`/);
    expect(doc).toMatch(/\| 429 `throttled` \| .*`Retry-After`/);
  });

  it('describes callbacks: headers, signature, types, retries and deduplication', () => {
    for (const type of [
      'collection.paid',
      'collection.closed',
      'collection.failed',
      'payout.succeeded',
      'payout.failed',
      'payout.refunded',
    ]) {
      expect(doc).toMatch(new RegExp(`^- \`${type.replace('.', '\\.')}\`: `, 'm'));
    }
    expect(doc).toMatch(/^- `webhook-id`: .*same on every retry.*deduplicate on it/im);
    expect(doc).toMatch(/^- `webhook-timestamp`: Unix seconds/m);
    expect(doc).toContain('`webhook-id + "." + webhook-timestamp + "." + raw body`');
    expect(doc).toContain('**base64-decoded** part of your webhook secret after `whsec_`');
    expect(doc).toContain(
      '15 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, 24 h, 36 h, 48 h, 72 h after the first attempt (3 days',
    );
    expect(doc).toContain('stay listed for 30 days');
    // The reference says what the delivery does: each retry is due when the schedule it prints says.
    const unit = { s: 1000, min: 60_000, h: 3_600_000 } as const;
    const documented = CALLBACK_RETRY_DELAYS.map((text) => {
      const [value, u] = text.split(' ');
      return Number(value) * unit[u as keyof typeof unit];
    });
    let elapsed = 0;
    const actual: number[] = [];
    for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt++) {
      elapsed += retryDelayMs(attempt, () => 0.5)!;
      actual.push(elapsed);
    }
    expect(documented).toEqual(actual);
    expect(retryDelayMs(WEBHOOK_MAX_ATTEMPTS, () => 0.5)).toBeNull();
    expect(doc).toContain('**2xx within 15 seconds**');
    expect(doc).toMatch(/"id".*\n.*"type".*\n.*"created_at".*\n.*"data"/);
    expect(doc).toContain('standardwebhooks');
  });

  it('embeds every example in a fenced code block', () => {
    const fenced = (language: string, code: string) => `\`\`\`${language}\n${code.trimEnd()}\n\`\`\``;
    expect(doc).toContain(fenced('bash', SIGNING_EXAMPLES.curl));
    expect(doc).toContain(fenced('js', SIGNING_EXAMPLES.node));
    expect(doc).toContain(fenced('python', SIGNING_EXAMPLES.python));
    expect(doc).toContain(fenced('php', SIGNING_EXAMPLES.php));
    expect(doc).toContain(fenced('java', SIGNING_EXAMPLES.java));
    expect(doc).toContain(fenced('js', CALLBACK_VERIFICATION_EXAMPLES.node));
    expect(doc).toContain(fenced('python', CALLBACK_VERIFICATION_EXAMPLES.python));
    // Every fence is closed, so nothing after an example renders as code.
    expect(doc.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
  });

  it('offers the signing examples as x-codeSamples', () => {
    expect(CREATE_COLLECTION_CODE_SAMPLES.map((sample) => sample.label)).toEqual([
      'curl',
      'Node.js',
      'Python',
      'PHP',
      'Java',
    ]);
    expect(CREATE_COLLECTION_CODE_SAMPLES.map((sample) => sample.source)).toEqual([
      SIGNING_EXAMPLES.curl,
      SIGNING_EXAMPLES.node,
      SIGNING_EXAMPLES.python,
      SIGNING_EXAMPLES.php,
      SIGNING_EXAMPLES.java,
    ]);
  });
});
