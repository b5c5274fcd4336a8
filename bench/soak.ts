import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { queryRows } from '../apps/server/src/db/client.ts';
import { channels } from '../apps/server/src/db/schema/index.ts';
import { signRequest } from '../apps/server/src/lib/gateway-signature.ts';
import { createLedger, verifyLedger } from '../apps/server/src/modules/ledger/index.ts';
import { DEMO_PAYEES } from '../apps/server/src/modules/payouts/index.ts';
import { createGatewayMerchant } from '../apps/server/test/factories/gateway.ts';
import { TEST_PASSWORD } from '../apps/server/test/factories/merchants.ts';
import { createBenchDatabase, fixed } from './lib.ts';

// Soak (`npm run bench -- soak [--minutes N]`, default 10): mixed demo traffic at a moderate rate against
// the real server as `npm run serve` runs it (main.ts in a child process, NODE_ENV=production with the
// demo's sandbox (PAYDESK_DEMO), logs at info, JOBS=inline: the same process delivers callbacks, runs
// exports, settles and plays the sandbox channel) on a fresh PostgreSQL database of its own. Three
// merchants (CNY, INR, BRL) and, every second or so:
// - gateway collections, then paid or failed by a payer on the sandbox's hosted page (GET, then POST
//   result=paid|failed), a few left to the sandbox's auto mode, a few abandoned until they expire (1 min);
// - gateway payouts, most with an Idempotency-Key: some retried (a replay), some sent twice at once, some
//   reused with another body (422); one account in twenty ends in 0000, which the sandbox fails;
// - signed status reads and balances; console list reads with logged-in sessions (collections, payouts,
//   fund flows, settlements, daily reports, dashboard, exports, balance), an export created, followed and
//   downloaded every ~20 s, a user logging in and out every 30 s;
// - callbacks to a local receiver that checks every Standard Webhooks signature with the standardwebhooks
//   package and refuses one event's first attempt in twenty (503), so the retry path runs too.
// The server's RSS (/proc/<pid>/status) and V8 heap (bench/soak-probe.ts, over IPC: the heap now and just
// after the last major GC) are sampled every 5 s. Exit 1 on any unexpected answer (a 5xx included), a
// missing, duplicated or badly signed callback, an error in the server's log, a broken ledger invariant, or
// (runs of 5 minutes or more) an RSS growth trend.

const SAMPLE_SECONDS = 5;
/** Orders a second: collections, then payouts (4 + 2 orders make about 18 requests a second in all). */
const COLLECTIONS_PER_SECOND = 4;
const PAYOUTS_PER_SECOND = 2;
const CONSOLE_READS_PER_SECOND = 3;
const BALANCE_EVERY_MS = 2_000;
const LOGIN_EVERY_MS = 30_000;
const EXPORT_PAUSE_MS = 20_000;
/** A request without an answer after this long is a failure (status 0, timeout). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Ticks are skipped (and counted) while this many flows are in flight: the server is falling behind. */
const MAX_IN_FLIGHT = 300;
/**
 * After the traffic: abandoned orders expire (1 min) and are closed by the next run of the expiry sweep
 * (each minute), refused callbacks come back (15 s), payouts finish.
 */
const DRAIN_LIMIT_MS = 210_000;
/**
 * The memory verdict: a growth trend is a least-squares slope over the second half of at least 1 MB/min
 * AND an end more than 10% above the level after warm-up. Either alone is not enough: the server's RSS
 * saw-tooths by ~100 MB (GC, the allocator giving memory back), so a second half that starts in a trough
 * has a steep slope while it refills to the same plateau. A leak that 10% of ~350 MB over the run would
 * show is therefore ~4 MB/min in 10 minutes; slower ones need a longer --minutes.
 */
const SLOPE_LIMIT_MB_PER_MIN = 1;
const END_GROWTH_LIMIT = 0.1;
/** Shorter runs print the verdict as indicative only: the heap is still settling. */
const VERDICT_MIN_MINUTES = 5;
const APP_KEY = Buffer.alloc(32, 7);
const mainPath = path.resolve(import.meta.dirname, '../apps/server/src/main.ts');
const probePath = path.resolve(import.meta.dirname, 'soak-probe.ts');

type SoakCurrency = 'CNY' | 'INR' | 'BRL';
const COUNTRY_OF: Record<SoakCurrency, string> = { CNY: 'CN', INR: 'IN', BRL: 'BR' };
const CURRENCIES: SoakCurrency[] = ['CNY', 'INR', 'BRL'];

type SoakMerchant = {
  index: number;
  no: string;
  currency: SoakCurrency;
  accessKey: string;
  secret: string;
  webhookSecret: string;
  rootEmail: string;
  viewerEmail: string;
};

const argMinutes = () => {
  const at = process.argv.indexOf('--minutes');
  const value = at > 0 ? Number(process.argv[at + 1]) : 10;
  if (!Number.isFinite(value) || value < 0.5 || value > 24 * 60)
    throw new Error('--minutes must be a number of minutes from 0.5 to 1440.');
  return value;
};

// ---- What happened: answers by kind and status, latencies, and every unexpected answer.

type Failure = { atSeconds: number; kind: string; request: string; detail: string; requestId: string | null };

function createTally(startedAt: number) {
  const answers = new Map<string, Map<string, number>>();
  const latencies = new Map<string, number[]>();
  const failures: Failure[] = [];
  let requests = 0;
  return {
    failures,
    get requests() {
      return requests;
    },
    answer(kind: string, key: string, ms: number) {
      requests += 1;
      const byKey = answers.get(kind) ?? new Map<string, number>();
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
      answers.set(kind, byKey);
      const list = latencies.get(kind) ?? [];
      list.push(ms);
      latencies.set(kind, list);
    },
    fail(kind: string, request: string, detail: string, requestId: string | null = null) {
      failures.push({
        atSeconds: (performance.now() - startedAt) / 1000,
        kind,
        request,
        detail,
        requestId,
      });
    },
    rows() {
      return [...answers.keys()].sort().map((kind) => {
        const sorted = [...(latencies.get(kind) ?? [])].sort((a, b) => a - b);
        const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
        const counts = [...answers.get(kind)!].sort((a, b) => b[1] - a[1]);
        return { kind, counts, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
      });
    },
  };
}
type Tally = ReturnType<typeof createTally>;

type Answer = {
  ok: boolean;
  status: number;
  text: string;
  bytes: Buffer | null;
  headers: Headers | null;
  requestId: string | null;
};

const codeOf = (text: string): string | null => {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
};

/** One request: recorded under `kind`; a status not in `expected` (a 5xx always) is a failure. */
async function send(
  tally: Tally,
  kind: string,
  expected: readonly number[],
  url: string,
  init: RequestInit & { binary?: boolean },
): Promise<Answer> {
  const started = performance.now();
  const request = `${init.method ?? 'GET'} ${new URL(url).pathname}${new URL(url).search}`;
  let answer: Answer;
  try {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const bytes = init.binary ? Buffer.from(await response.arrayBuffer()) : null;
    const text = bytes ? '' : await response.text();
    answer = {
      ok: expected.includes(response.status),
      status: response.status,
      text,
      bytes,
      headers: response.headers,
      requestId: response.headers.get('x-request-id'),
    };
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
    answer = { ok: false, status: 0, text: reason, bytes: null, headers: null, requestId: null };
  }
  const code = answer.status >= 300 ? codeOf(answer.text) : null;
  tally.answer(kind, code ? `${answer.status} ${code}` : String(answer.status), performance.now() - started);
  if (!answer.ok) {
    tally.fail(
      kind,
      request,
      `answered ${answer.status || 'nothing'} (expected ${expected.join(' or ')}): ${answer.text.slice(0, 300)}`,
      answer.requestId,
    );
  }
  return answer;
}

const dataOf = <T>(answer: Answer): T => (JSON.parse(answer.text) as { data: T }).data;

/** A merchant's server: signed gateway calls with fresh nonces (DESIGN section 6). */
function gatewayClient(base: string, tally: Tally) {
  return (
    kind: string,
    m: SoakMerchant,
    method: 'GET' | 'POST',
    pathWithQuery: string,
    options: { body?: object; headers?: Record<string, string>; expected?: readonly number[] } = {},
  ) => {
    const body = options.body === undefined ? '' : JSON.stringify(options.body);
    const timestamp = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(16).toString('hex');
    return send(tally, kind, options.expected ?? [method === 'POST' ? 201 : 200], `${base}${pathWithQuery}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        'x-merchant-no': m.no,
        'x-access-key': m.accessKey,
        'x-timestamp': String(timestamp),
        'x-nonce': nonce,
        'x-signature': signRequest(m.secret, { method, pathWithQuery, timestamp, nonce, body }),
        ...options.headers,
      },
      ...(body ? { body } : {}),
    });
  };
}

/** A browser on the console: keeps its cookies and sends X-XSRF-TOKEN on unsafe requests, as the web app does. */
function consoleSession(base: string, tally: Tally, language: string) {
  const cookies = new Map<string, string>();
  const request = async (
    kind: string,
    method: 'GET' | 'POST',
    pathWithQuery: string,
    options: { body?: object; expected?: readonly number[]; binary?: boolean } = {},
  ) => {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-language': language,
      'x-timezone': 'Asia/Shanghai',
      // The soak's merchants trade in test mode (their channels are the sandbox's).
      'x-mode': 'test',
    };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = cookies.get('XSRF-TOKEN');
    if (method === 'POST' && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (options.body) headers['content-type'] = 'application/json';
    const answer = await send(tally, kind, options.expected ?? [200], `${base}${pathWithQuery}`, {
      method,
      headers,
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
      ...(options.binary ? { binary: true } : {}),
    });
    for (const line of answer.headers?.getSetCookie() ?? []) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((a) => /^max-age=0$/i.test(a));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return answer;
  };
  const login = async (email: string) => {
    await request('console csrf cookie', 'GET', '/api/csrf-cookie', { expected: [204] });
    const answer = await request('console login', 'POST', '/api/login', {
      body: { email, password: TEST_PASSWORD },
    });
    if (answer.ok && (JSON.parse(answer.text) as { two_factor?: boolean }).two_factor !== false)
      tally.fail('console login', 'POST /api/login', `asked for two-factor: ${answer.text}`);
    return answer.ok;
  };
  return { request, login };
}

// ---- The callback receiver: a merchant's notify URL, /notify/<merchant index>.

type Expectation = { types: readonly string[]; fate: string; certain: boolean };

/** `merchants` may still be filling when it starts: each merchant's notify URL needs the receiver's port. */
function startReceiver(merchants: SoakMerchant[]) {
  const verifiers = new Map<number, Webhook>();
  const verifierOf = (index: number) => {
    if (!verifiers.has(index)) verifiers.set(index, new Webhook(merchants[index].webhookSecret));
    return verifiers.get(index)!;
  };
  /** event id -> what it carried and how often it was answered 200 */
  const events = new Map<string, { type: string; tradeNo: string; delivered: number; attempts: number }>();
  const eventsOfOrder = new Map<string, Set<string>>();
  const stats = {
    requests: 0,
    badSignatures: [] as string[],
    refusedOnPurpose: 0,
    redeliveredAfterRefusal: 0,
    duplicates: [] as string[],
    byType: new Map<string, number>(),
  };
  const refused = new Set<string>();
  let newIds = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      stats.requests += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const index = Number(/^\/notify\/(\d+)$/.exec(request.url ?? '')?.[1]);
      const id = String(request.headers['webhook-id']);
      let payload: { id: string; type: string; data: { trade_no: string } };
      try {
        payload = verifierOf(index).verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        }) as typeof payload;
      } catch (error) {
        stats.badSignatures.push(`${request.url} ${id}: ${(error as Error).message}`);
        response.writeHead(400).end('bad signature');
        return;
      }
      const seen = events.get(id);
      if (!seen) {
        newIds += 1;
        events.set(id, { type: payload.type, tradeNo: payload.data.trade_no, delivered: 0, attempts: 1 });
        const ofOrder = eventsOfOrder.get(payload.data.trade_no) ?? new Set<string>();
        eventsOfOrder.set(payload.data.trade_no, ofOrder.add(id));
        // One event in twenty: its first attempt is refused, so the server's retry (15 s later) runs too.
        if (newIds % 20 === 0) {
          refused.add(id);
          stats.refusedOnPurpose += 1;
          response.writeHead(503).end('try again');
          return;
        }
      } else {
        seen.attempts += 1;
        if (seen.delivered > 0) stats.duplicates.push(`${id} (${seen.type} ${seen.tradeNo})`);
        if (refused.has(id) && seen.delivered === 0) stats.redeliveredAfterRefusal += 1;
      }
      const event = events.get(id)!;
      event.delivered += 1;
      if (event.delivered === 1) stats.byType.set(event.type, (stats.byType.get(event.type) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return new Promise<{
    url: string;
    stats: typeof stats;
    /** The callbacks delivered (answered 200) for an order. */
    deliveredOf: (tradeNo: string) => { id: string; type: string }[];
    tradeNos: () => IterableIterator<string>;
    close: () => Promise<void>;
  }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        stats,
        deliveredOf: (tradeNo) =>
          [...(eventsOfOrder.get(tradeNo) ?? [])]
            .map((id) => ({ id, ...events.get(id)! }))
            .filter((e) => e.delivered > 0)
            .map(({ id, type }) => ({ id, type })),
        tradeNos: () => eventsOfOrder.keys(),
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

// ---- The server: main.ts as `npm run serve` runs it, in a child process of its own.

type ServerChild = {
  child: ChildProcess;
  pid: number;
  url: string;
  exited: Promise<number | null>;
  logFile: string;
  errors: string[];
  errorCount: () => number;
  warnings: string[];
  warningCount: () => number;
  stderr: string[];
};

function startServer(env: NodeJS.ProcessEnv, logFile: string): Promise<ServerChild> {
  const child = spawn(process.execPath, ['--import', probePath, mainPath], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const log = createWriteStream(logFile);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      log.end();
      resolve(code);
    }),
  );
  const errors: string[] = [];
  const warnings: string[] = [];
  const stderr: string[] = [];
  let errorCount = 0;
  let warningCount = 0;
  let pending = '';
  let url: string | null = null;
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!url) {
          const match = /running at (http:\/\/[^\s)]+)/.exec(line);
          if (match) {
            url = match[1];
            resolve({
              child,
              pid: child.pid!,
              url,
              exited,
              logFile,
              errors,
              errorCount: () => errorCount,
              warnings,
              warningCount: () => warningCount,
              stderr,
            });
          }
        }
        // pino's levels: 40 warn, 50 error, 60 fatal.
        const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0);
        if (level >= 50) {
          errorCount += 1;
          if (errors.length < 20) errors.push(line.slice(0, 2000));
        } else if (level === 40) {
          warningCount += 1;
          if (warnings.length < 10) warnings.push(line.slice(0, 1000));
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        if (stderr.length < 50) stderr.push(line.slice(0, 1000));
    });
    child.on('exit', (code) => {
      if (!url) reject(new Error(`the server exited before listening (${code}):\n${stderr.join('\n')}`));
    });
  });
}

type Memory = { rssMb: number; heapMb: number | null; heapAfterGcMb: number | null };
type Sample = Memory & { seconds: number };

/** The server's resident memory (/proc/<pid>/status VmRSS) and, over IPC, its V8 heap (bench/soak-probe.ts). */
async function sampleMemory(server: ServerChild): Promise<Memory> {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  return new Promise<Memory>((resolve) => {
    const timer = setTimeout(() => {
      server.child.off('message', onMessage);
      resolve({ rssMb, heapMb: null, heapAfterGcMb: null });
    }, 2_000);
    const onMessage = (message: unknown) => {
      const { memory, heapAfterMajorGc } = message as {
        memory?: NodeJS.MemoryUsage;
        heapAfterMajorGc?: number | null;
      };
      if (!memory) return;
      clearTimeout(timer);
      server.child.off('message', onMessage);
      const mb = (bytes: number | null | undefined) =>
        typeof bytes === 'number' ? bytes / 1024 / 1024 : null;
      resolve({ rssMb, heapMb: mb(memory.heapUsed), heapAfterGcMb: mb(heapAfterMajorGc) });
    };
    server.child.on('message', onMessage);
    server.child.send('memory');
  });
}

/** Least-squares slope of value against time, in MB per minute. */
function slopePerMinute(points: { seconds: number; value: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanX = points.reduce((s, p) => s + p.seconds, 0) / n;
  const meanY = points.reduce((s, p) => s + p.value, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.seconds - meanX) * (p.value - meanY), 0);
  const sxx = points.reduce((s, p) => s + (p.seconds - meanX) ** 2, 0);
  return sxx === 0 ? 0 : (sxy / sxx) * 60;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

/** The memory figures of one series over the traffic: after warm-up, end, max, and the second half's slope. */
function memoryTrend(samples: { seconds: number; value: number }[], warmup: number, duration: number) {
  const after = samples.filter((s) => s.seconds >= warmup && s.seconds <= duration);
  const window = Math.max(SAMPLE_SECONDS * 3, 30);
  const base = median(after.filter((s) => s.seconds < warmup + window).map((s) => s.value));
  const end = median(after.filter((s) => s.seconds > duration - window).map((s) => s.value));
  const max = Math.max(...after.map((s) => s.value));
  const slope = slopePerMinute(after.filter((s) => s.seconds >= duration / 2));
  const grows = slope >= SLOPE_LIMIT_MB_PER_MIN && end > base * (1 + END_GROWTH_LIMIT);
  return { first: samples[0]?.value ?? NaN, base, end, max, slope, grows };
}

const randomAmount = (low: number, high: number) =>
  `${randomInt(low, high)}.${String(randomInt(0, 100)).padStart(2, '0')}`;
const tag = () => `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

export async function runSoak(): Promise<void> {
  const minutes = argMinutes();
  const durationSeconds = minutes * 60;
  const warmupSeconds = Math.min(60, durationSeconds * 0.2);
  const bench = await createBenchDatabase('soak', 4);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paydesk-soak-'));
  const logFile = path.join(tmpdir(), `paydesk-soak-${process.pid}.log`);
  const loadBefore = loadavg()[0];
  let server: ServerChild | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  const killServer = () => server?.child.exitCode === null && server.child.kill('SIGKILL');
  process.once('exit', killServer);
  let keepLog = false;
  try {
    const { db } = bench.database;
    console.log(
      `soak: ${fixed(minutes, minutes % 1 === 0 ? 0 : 1)} min of mixed traffic, database ${bench.name}, server log ${logFile}`,
    );

    // Three merchants with an access key (127.0.0.1 whitelisted), a webhook secret and a notify URL on the
    // receiver; collection channels sandbox (the hosted page), sandbox-auto (pays 90% by itself after 3 s)
    // and sandbox-short (expires after 1 minute), all T+0 so the settlement job has work; a sandbox payout
    // channel (finishes 5 s after processing); and 100,000,000.00 available to pay out.
    const merchants: SoakMerchant[] = [];
    const ledger = createLedger();
    receiver = await startReceiver(merchants);
    for (const [index, currency] of CURRENCIES.entries()) {
      const country = COUNTRY_OF[currency];
      // The sandbox serves test mode only (DESIGN 12): the key, the channels and the money are the test
      // twin's, and the console looks at test mode.
      const made = await createGatewayMerchant(db, APP_KEY, {
        mode: 'test',
        currency,
        roles: ['ROOT', 'VIEWER'],
        notifyUrl: `${receiver.url}/notify/${index}`,
        channel: { country, settlementCycle: 'T0' },
      });
      const id = made.merchant.id;
      const base = { merchantId: id, country, currency, openedBy: 'bench' };
      await db.insert(channels).values([
        {
          ...base,
          code: 'sandbox-auto',
          kind: 'collection',
          feeRatePpm: 15_000,
          minAmountMinor: 100n,
          maxAmountMinor: 5_000_000n,
          settlementCycle: 'T0',
          sandboxMode: 'auto',
          sandboxDelaySeconds: 3,
        },
        {
          ...base,
          code: 'sandbox-short',
          kind: 'collection',
          feeRatePpm: 15_000,
          minAmountMinor: 100n,
          maxAmountMinor: 5_000_000n,
          settlementCycle: 'T0',
          expiryMinutes: 1,
        },
        {
          ...base,
          code: 'sandbox-pay',
          kind: 'payout',
          feeRatePpm: 8_000,
          fixedFeeMinor: 100n,
          minAmountMinor: 100n,
          maxAmountMinor: 5_000_000n,
        },
      ]);
      await db.transaction((tx) =>
        ledger.post(tx, {
          merchantId: id,
          type: 'transfer_in',
          amountMinor: 10_000_000_000n,
          refType: 'bench',
          refId: String(id),
          idempotencyKey: `bench:fund:${id}`,
        }),
      );
      const merchant: SoakMerchant = {
        index,
        no: made.merchant.no,
        currency,
        accessKey: made.accessKey,
        secret: made.secret,
        webhookSecret: made.webhookSecret,
        rootEmail: made.users.ROOT.email,
        viewerEmail: made.users.VIEWER.email,
      };
      merchants.push(merchant);
    }

    server = await startServer(
      {
        NODE_ENV: 'production',
        // The sandbox channel plays the payer; production has it only in the demo (the database already
        // holds merchants, so the demo's own are not seeded).
        PAYDESK_DEMO: 'true',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: bench.url,
        DATA_DIR: dataDir,
        APP_KEY: `base64:${APP_KEY.toString('base64')}`,
        LOG_LEVEL: 'info',
        JOBS: 'inline',
        NOTIFY_ALLOW_PRIVATE: 'true',
        WEB_DIST: path.join(dataDir, 'no-console'),
      },
      logFile,
    );
    const base = server.url;
    console.log(
      `server: pid ${server.pid} at ${base} (main.ts, NODE_ENV=production, JOBS=inline, LOG_LEVEL=info); ` +
        `merchants ${merchants.map((m) => `${m.no} (${m.currency})`).join(', ')}`,
    );

    const startedAt = performance.now();
    const until = startedAt + durationSeconds * 1000;
    const elapsed = () => (performance.now() - startedAt) / 1000;
    const tally = createTally(startedAt);
    const gateway = gatewayClient(base, tally);
    const expectations = new Map<string, Expectation>();
    const orders = {
      collections: new Map<string, number>(),
      payouts: new Map<string, number>(),
      exports: new Map<string, number>(),
    };
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    let failingPayouts = 0;
    const inFlight = new Set<Promise<void>>();
    let skippedTicks = 0;
    const track = (work: () => Promise<void>) => {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        skippedTicks += 1;
        return;
      }
      const promise = work().catch((error: Error) =>
        tally.fail('bench', 'flow', `threw: ${error.stack ?? error.message}`),
      );
      inFlight.add(promise);
      void promise.finally(() => inFlight.delete(promise));
    };
    /** Runs fn every `ms` until the end of the traffic, each run tracked as an in-flight flow. */
    const every = async (ms: number, fn: (i: number) => Promise<void>) => {
      for (let i = 0; ; i++) {
        const due = startedAt + i * ms;
        if (due >= until) return;
        if (due > performance.now()) await sleep(due - performance.now());
        track(() => fn(i));
      }
    };

    // A merchant's order: created through the gateway, then paid or failed by the payer on the hosted page,
    // finished by the sandbox's auto mode, or abandoned until it expires; sometimes read back by its merchant.
    const collectionFlow = async (i: number) => {
      const m = merchants[i % merchants.length];
      const roll = randomInt(100);
      const fate =
        roll < 72 ? 'paid on the page' : roll < 84 ? 'failed on the page' : roll < 94 ? 'auto' : 'abandoned';
      const channel = fate === 'auto' ? 'sandbox-auto' : fate === 'abandoned' ? 'sandbox-short' : 'sandbox';
      const body = { out_trade_no: `SOAK-C-${tag()}`, amount: randomAmount(10, 2000), channel };
      const created = await gateway('gateway collection create', m, 'POST', '/gateway/v1/collections', {
        body,
      });
      if (!created.ok) return;
      const order = dataOf<{ trade_no: string; pay_url: string }>(created);
      count(orders.collections, fate);
      const expectation: Expectation = {
        fate: `collection ${fate}`,
        types:
          fate === 'paid on the page'
            ? ['collection.paid']
            : fate === 'failed on the page'
              ? ['collection.failed']
              : fate === 'auto'
                ? ['collection.paid', 'collection.failed']
                : ['collection.closed'],
        certain: true,
      };
      expectations.set(order.trade_no, expectation);
      if (randomInt(100) < 3) {
        const again = await gateway(
          'gateway collection create, repeated out_trade_no',
          m,
          'POST',
          '/gateway/v1/collections',
          { body, expected: [409] },
        );
        if (again.ok && !again.text.includes(order.trade_no))
          tally.fail(
            'gateway collection create, repeated out_trade_no',
            'POST',
            `no trade_no: ${again.text}`,
          );
      }
      if (fate !== 'auto') {
        // pay_url is absolute (PUBLIC_URL, else the origin this call reached); a relative one still reads.
        const payPage = new URL(order.pay_url, base).toString();
        await sleep(randomInt(500, 2500));
        const page = await send(tally, 'sandbox pay page', [200], payPage, {
          headers: { 'accept-language': ['en', 'zh-CN', 'vi'][i % 3] },
        });
        if (page.ok && !page.text.includes(order.trade_no))
          tally.fail('sandbox pay page', `GET ${order.pay_url}`, 'the page does not show the order');
        if (fate !== 'abandoned') {
          await sleep(randomInt(300, 1500));
          const result = fate === 'paid on the page' ? 'paid' : 'failed';
          const pressed = await send(tally, `sandbox pay, result=${result}`, [303], payPage, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `result=${result}`,
          });
          if (!pressed.ok) expectation.certain = false;
        }
      }
      if (randomInt(100) < 30) {
        await sleep(3_000);
        const byOurs = randomInt(2) === 0;
        const read = await gateway(
          'gateway collection read',
          m,
          'GET',
          byOurs
            ? `/gateway/v1/collections/${order.trade_no}`
            : `/gateway/v1/collections?out_trade_no=${body.out_trade_no}`,
        );
        const status = read.ok ? dataOf<{ status: string }>(read).status : null;
        const want = { 'paid on the page': 'paid', 'failed on the page': 'failed', abandoned: 'to_be_paid' }[
          fate as 'abandoned'
        ];
        if (status && want && status !== want)
          tally.fail(
            'gateway collection read',
            order.trade_no,
            `${fate} but reads ${status}`,
            read.requestId,
          );
      }
    };

    // A payout: most with an Idempotency-Key; some retried (replayed), some sent twice at once (one payout),
    // some with the key reused on another body (422); one account in twenty ends in 0000 (the sandbox fails it).
    const payoutFlow = async (i: number) => {
      const m = merchants[i % merchants.length];
      const payee = DEMO_PAYEES[m.currency];
      const fails = randomInt(20) === 0;
      const body = {
        ...payee,
        account_no: fails ? `${payee.account_no.slice(0, -4)}0000` : payee.account_no,
        out_trade_no: `SOAK-P-${tag()}`,
        amount: randomAmount(10, 200),
      };
      const roll = randomInt(100);
      const mode =
        roll < 30
          ? 'no key'
          : roll < 70
            ? 'key'
            : roll < 90
              ? 'key, retried'
              : roll < 96
                ? 'key, sent twice at once'
                : 'key, reused on another body';
      const key = `soak-${tag()}-${randomBytes(8).toString('hex')}`;
      const headers: Record<string, string> = mode === 'no key' ? {} : { 'idempotency-key': key };
      const post = (kind: string, payload: object, expected: readonly number[] = [201]) =>
        gateway(kind, m, 'POST', '/gateway/v1/payouts', { body: payload, headers, expected });
      let tradeNo: string | null;
      if (mode === 'key, sent twice at once') {
        const kind = 'gateway payout create, twice at once';
        const pair = await Promise.all([post(kind, body, [201, 409]), post(kind, body, [201, 409])]);
        const fresh = pair.filter(
          (a) => a.status === 201 && a.headers?.get('idempotent-replayed') !== 'true',
        );
        const created = pair.filter((a) => a.status === 201).map((a) => dataOf<{ trade_no: string }>(a));
        const conflicts = pair.filter((a) => a.status === 409);
        if (
          fresh.length !== 1 ||
          new Set(created.map((c) => c.trade_no)).size !== 1 ||
          conflicts.some((a) => codeOf(a.text) !== 'idempotency_key_in_flight')
        ) {
          if (pair.every((a) => a.ok))
            tally.fail(
              kind,
              body.out_trade_no,
              pair.map((a) => `${a.status} ${a.text.slice(0, 200)}`).join(' | '),
            );
        }
        tradeNo = created[0]?.trade_no ?? null;
      } else {
        const first = await post('gateway payout create', body);
        if (!first.ok) return;
        tradeNo = dataOf<{ trade_no: string }>(first).trade_no;
        if (mode === 'key, retried') {
          await sleep(randomInt(200, 1500));
          const again = await post('gateway payout create, retried (replay)', body);
          if (
            again.ok &&
            (again.headers?.get('idempotent-replayed') !== 'true' ||
              dataOf<{ trade_no: string }>(again).trade_no !== tradeNo)
          )
            tally.fail(
              'gateway payout create, retried (replay)',
              body.out_trade_no,
              `not a replay: ${again.text}`,
            );
        } else if (mode === 'key, reused on another body') {
          const other = { ...body, amount: randomAmount(201, 300) };
          const reused = await post('gateway payout create, key reused on another body', other, [422]);
          if (reused.ok && codeOf(reused.text) !== 'idempotency_key_reused')
            tally.fail('gateway payout create, key reused', body.out_trade_no, reused.text.slice(0, 300));
        }
      }
      if (!tradeNo) return;
      count(orders.payouts, mode);
      if (fails) failingPayouts += 1;
      expectations.set(tradeNo, {
        fate: `payout ${fails ? 'to a failing account' : ''}`.trim(),
        types: [fails ? 'payout.failed' : 'payout.succeeded'],
        certain: true,
      });
      if (randomInt(100) < 30) {
        await sleep(8_000);
        await gateway('gateway payout read', m, 'GET', `/gateway/v1/payouts/${tradeNo}`);
      }
    };

    // The console: each merchant's ROOT user stays logged in and reads the lists; merchant 0's also exports.
    const roots = merchants.map((m, i) => ({
      m,
      session: consoleSession(base, tally, ['en', 'zh-CN', 'vi'][i]),
      cursor: null as string | null,
    }));
    for (const root of roots) {
      if (!(await root.session.login(root.m.rootEmail)))
        throw new Error(`could not log in as ${root.m.rootEmail}: ${tally.failures.at(-1)?.detail}`);
    }
    const READS: [string, string][] = [
      ['console collections', '/api/merchant/collections?per_page=20'],
      ['console payouts', '/api/merchant/payouts?per_page=20'],
      ['console fund flows', '/api/merchant/fund-flows?per_page=20'],
      ['console daily reports', '/api/merchant/daily-reports'],
      ['console dashboard', '/api/merchant/dashboard'],
      ['console collections (paid)', '/api/merchant/collections?per_page=20&status=paid'],
      ['console settlements', '/api/merchant/settlements?per_page=20'],
      ['console exports', '/api/merchant/exports'],
      ['console balance', '/api/merchant/balance'],
      ['console collections, page 2 by cursor', ''],
    ];
    const consoleRead = async (i: number) => {
      const root = roots[i % roots.length];
      const [kind, listPath] = READS[Math.floor(i / roots.length) % READS.length];
      const target =
        listPath || (root.cursor ? `/api/merchant/collections?per_page=20&page=2&cursor=${root.cursor}` : '');
      if (!target) return;
      const answer = await root.session.request(kind, 'GET', target);
      if (answer.ok && listPath === READS[0][1]) {
        root.cursor = (JSON.parse(answer.text) as { meta: { next_cursor: string | null } }).meta.next_cursor;
      }
    };
    const viewerLogin = async (i: number) => {
      const m = merchants[i % merchants.length];
      const session = consoleSession(base, tally, 'en');
      if (!(await session.login(m.viewerEmail))) return;
      await session.request('console dashboard', 'GET', '/api/merchant/dashboard');
      await session.request('console collections', 'GET', '/api/merchant/collections?per_page=20');
      await session.request('console logout', 'POST', '/api/logout', { expected: [204] });
    };
    const EXPORTS: { kind: string; format: 'csv' | 'xlsx' }[] = [
      { kind: 'collections', format: 'csv' },
      { kind: 'payouts', format: 'xlsx' },
      { kind: 'fund_flows', format: 'csv' },
      { kind: 'daily_reports', format: 'xlsx' },
      { kind: 'settlements', format: 'csv' },
      { kind: 'fund_flows', format: 'xlsx' },
    ];
    const exporter = async () => {
      const { session } = roots[0];
      for (let i = 0; performance.now() < until; i++) {
        const { kind, format } = EXPORTS[i % EXPORTS.length];
        const label = `${kind} ${format}`;
        const created = await session.request('console export create', 'POST', '/api/merchant/exports', {
          body: { kind, format, filters: {} },
          expected: [201],
        });
        if (created.ok) {
          const { id } = dataOf<{ id: number }>(created);
          let task: {
            status: string;
            size: number | null;
            error: string | null;
            row_count: number | null;
          } | null = null;
          const giveUp = performance.now() + 120_000;
          while (performance.now() < giveUp) {
            await sleep(1_000);
            const polled = await session.request(
              'console export status',
              'GET',
              `/api/merchant/exports/${id}`,
            );
            if (!polled.ok) break;
            task = dataOf(polled);
            if (task!.status === 'success' || task!.status === 'failed') break;
          }
          if (task?.status === 'success') {
            const file = await session.request(
              'console export download',
              'GET',
              `/api/merchant/exports/${id}/download`,
              {
                binary: true,
              },
            );
            const bytes = file.bytes ?? Buffer.alloc(0);
            const magic =
              format === 'csv'
                ? bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))
                : bytes.subarray(0, 2).toString() === 'PK';
            if (file.ok && (bytes.length !== task.size || !magic))
              tally.fail(
                'console export download',
                label,
                `${bytes.length} bytes for size ${task.size}, magic ${magic}`,
              );
            count(orders.exports, label);
          } else {
            tally.fail(
              'console export',
              label,
              `ended ${task?.status ?? 'unknown'}: ${task?.error ?? 'no answer within 120 s'}`,
            );
          }
        }
        const pause = Math.min(EXPORT_PAUSE_MS, until - performance.now());
        if (pause > 0) await sleep(pause);
      }
    };

    // Memory samples every 5 s, and a progress line every minute (four times in a short run).
    const samples: Sample[] = [];
    let sampling = true;
    const progressEvery = Math.min(60, durationSeconds / 4);
    let nextProgress = progressEvery;
    const delivered = () =>
      [...expectations.keys()].filter((tradeNo) => receiver!.deliveredOf(tradeNo).length > 0).length;
    const sampler = (async () => {
      for (let i = 0; sampling; i++) {
        const due = startedAt + i * SAMPLE_SECONDS * 1000;
        if (due > performance.now()) await sleep(due - performance.now());
        if (!sampling) return;
        const memory = await sampleMemory(server!);
        const seconds = elapsed();
        samples.push({ seconds, ...memory });
        if (seconds + 0.5 >= nextProgress && seconds <= durationSeconds + 1) {
          const since = samples
            .filter((s) => s.seconds > nextProgress - progressEvery - 0.5)
            .map((s) => s.rssMb);
          nextProgress += progressEvery;
          const mb = (value: number | null) => (value === null ? '?' : fixed(value, 0));
          console.log(
            `  [${fixed(seconds / 60, 1)} min] ${tally.requests} requests, ${tally.failures.length} unexpected, ` +
              `RSS ${mb(memory.rssMb)} MB (${mb(Math.min(...since))}-${mb(Math.max(...since))} since the last line), ` +
              `heap ${mb(memory.heapMb)} MB (${mb(memory.heapAfterGcMb)} after the last major GC), ` +
              `callbacks ${delivered()}/${expectations.size} orders, ${inFlight.size} flows in flight, load ${fixed(loadavg()[0])}`,
          );
        }
      }
    })();

    await Promise.all([
      every(1000 / COLLECTIONS_PER_SECOND, collectionFlow),
      every(1000 / PAYOUTS_PER_SECOND, payoutFlow),
      every(1000 / CONSOLE_READS_PER_SECOND, consoleRead),
      every(BALANCE_EVERY_MS, async (i) => {
        await gateway('gateway balance', merchants[i % merchants.length], 'GET', '/gateway/v1/balance');
      }),
      every(LOGIN_EVERY_MS, viewerLogin),
      exporter(),
    ]);
    const trafficSeconds = elapsed();
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    const flowsDoneSeconds = elapsed();

    // Drain: every order's callback delivered (abandoned orders close within two minutes; refused first
    // attempts come back 15 s later), or the limit.
    const drainUntil = performance.now() + DRAIN_LIMIT_MS;
    const certain = () => [...expectations].filter(([, e]) => e.certain);
    while (performance.now() < drainUntil && certain().some(([no]) => receiver!.deliveredOf(no).length === 0))
      await sleep(1_000);
    const drainSeconds = elapsed() - flowsDoneSeconds;
    await sleep(2_000); // anything sent twice arrives now
    sampling = false;
    await sampler;
    const idle = await sampleMemory(server);

    // SIGTERM: the server finishes in-flight work and exits 0.
    server.child.kill('SIGTERM');
    const exitCode = await Promise.race([server.exited, sleep(40_000).then(() => 'timeout' as const)]);
    if (exitCode === 'timeout') server.child.kill('SIGKILL');

    // ---- The database after the run: every order finished as its flow says, every event delivered.
    const dbProblems: string[] = [];
    const collectionRows = await queryRows<{ trade_no: string; status: string }>(
      db,
      sql`select trade_no, status from collections`,
    );
    const payoutRows = await queryRows<{ trade_no: string; status: string }>(
      db,
      sql`select trade_no, status from payouts`,
    );
    const finalOf = new Map([...collectionRows, ...payoutRows].map((r) => [r.trade_no, r.status]));
    const STATUS_OF_TYPE: Record<string, string> = {
      'collection.paid': 'paid',
      'collection.failed': 'failed',
      'collection.closed': 'closed',
      'payout.succeeded': 'success',
      'payout.failed': 'failed',
    };
    let wrongStatus = 0;
    for (const [tradeNo, e] of expectations) {
      const status = finalOf.get(tradeNo);
      if (e.certain && !e.types.some((t) => STATUS_OF_TYPE[t] === status)) {
        wrongStatus += 1;
        if (wrongStatus <= 5) dbProblems.push(`${tradeNo} (${e.fate}) is ${status ?? 'missing'}`);
      }
    }
    if (wrongStatus > 5) dbProblems.push(`... ${wrongStatus - 5} more orders not in their expected state`);
    if (collectionRows.length + payoutRows.length !== expectations.size)
      dbProblems.push(
        `${collectionRows.length} collections + ${payoutRows.length} payouts stored for ${expectations.size} answers 201`,
      );
    const outbox = await queryRows<{ status: string; events: string; attempts: string }>(
      db,
      sql`select status, count(*)::text as events, sum(attempts)::text as attempts from callback_events group by status order by status`,
    );
    const undelivered = outbox.filter((r) => r.status !== 'delivered');
    if (undelivered.length > 0)
      dbProblems.push(
        `callback events not delivered: ${undelivered.map((r) => `${r.events} ${r.status}`).join(', ')}`,
      );
    const [stored] = await queryRows<{
      exports: string;
      exported: string;
      settlements: string;
      sessions: string;
    }>(
      db,
      sql`select (select count(*) from export_tasks)::text as exports,
                 (select count(*) from export_tasks where status = 'success')::text as exported,
                 (select count(*) from settlements)::text as settlements,
                 (select count(*) from sessions)::text as sessions`,
    );
    if (stored.exports !== stored.exported)
      dbProblems.push(`${stored.exported} of ${stored.exports} export tasks succeeded`);
    const report = await verifyLedger(db);

    // ---- Callbacks: one per order, of the type its flow expects, every signature valid.
    const callbackProblems: string[] = [];
    let received = 0;
    const missing: string[] = [];
    for (const [tradeNo, e] of certain()) {
      const got = receiver.deliveredOf(tradeNo);
      if (got.length === 0) {
        missing.push(`${tradeNo} (${e.fate}, final status ${finalOf.get(tradeNo) ?? '?'})`);
        continue;
      }
      received += 1;
      if (got.length > 1)
        callbackProblems.push(`${tradeNo}: ${got.length} events (${got.map((g) => g.type).join(', ')})`);
      if (!got.every((g) => e.types.includes(g.type)))
        callbackProblems.push(`${tradeNo} (${e.fate}): ${got.map((g) => g.type).join(', ')}`);
    }
    const known = new Set(expectations.keys());
    const strangers = [...receiver.tradeNos()].filter((no) => !known.has(no));
    if (missing.length > 0)
      callbackProblems.push(`${missing.length} orders without a callback: ${missing.slice(0, 5).join('; ')}`);
    if (strangers.length > 0)
      callbackProblems.push(`callbacks for unknown orders: ${strangers.slice(0, 5).join(', ')}`);
    if (receiver.stats.duplicates.length > 0)
      callbackProblems.push(
        `delivered again after a 200: ${receiver.stats.duplicates.slice(0, 5).join(', ')}`,
      );
    if (receiver.stats.badSignatures.length > 0)
      callbackProblems.push(`bad signatures: ${receiver.stats.badSignatures.slice(0, 5).join('; ')}`);
    if (receiver.stats.redeliveredAfterRefusal !== receiver.stats.refusedOnPurpose)
      callbackProblems.push(
        `${receiver.stats.refusedOnPurpose} first attempts refused, ${receiver.stats.redeliveredAfterRefusal} redelivered`,
      );
    const uncertain = expectations.size - certain().length;

    // ---- Print.
    const line = (label: string, value: string) => console.log(`${label.padEnd(58)}${value}`);
    const n = (value: number) => value.toLocaleString('en-US');
    const mix = (map: Map<string, number>) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${n(v)} ${k}`)
        .join(', ');
    console.log('');
    line(
      'traffic',
      `${fixed(trafficSeconds, 0)} s (flows done ${fixed(flowsDoneSeconds - trafficSeconds, 1)} s later), ` +
        `${n(tally.requests)} requests, ${fixed(tally.requests / flowsDoneSeconds, 1)} /s`,
    );
    line('  collections', `${n(sum(orders.collections))}: ${mix(orders.collections)}`);
    line(
      '  payouts',
      `${n(sum(orders.payouts))}: ${mix(orders.payouts)}; ${n(failingPayouts)} to an account ending 0000`,
    );
    line('  exports downloaded', `${n(sum(orders.exports))}: ${mix(orders.exports)}`);
    if (skippedTicks > 0) line('  ticks skipped (300 flows in flight)', n(skippedTicks));
    console.log('');
    const rows = tally.rows().map((row) => ({
      ...row,
      answers: row.counts.map(([key, c]) => `${n(c)} x ${key}`).join(', '),
    }));
    const kindWidth = Math.max(...rows.map((r) => r.kind.length)) + 2;
    const answersWidth = Math.max(...rows.map((r) => r.answers.length)) + 2;
    console.log(
      `${'requests by kind'.padEnd(kindWidth + 2)}${'answers'.padEnd(answersWidth)}p50 / p95 / max ms`,
    );
    for (const row of rows) {
      console.log(
        `  ${row.kind.padEnd(kindWidth)}${row.answers.padEnd(answersWidth)}${fixed(row.p50, 0)} / ${fixed(row.p95, 0)} / ${fixed(row.max, 0)}`,
      );
    }
    console.log('');
    const serverErrors = server.errorCount();
    line(
      'unexpected answers (5xx, any status not expected)',
      tally.failures.length === 0 ? 'none' : String(tally.failures.length),
    );
    for (const f of tally.failures.slice(0, 30))
      console.log(
        `  [${fixed(f.atSeconds, 1)} s] ${f.kind}: ${f.request} ${f.detail}${f.requestId ? ` (request ${f.requestId})` : ''}`,
      );
    if (tally.failures.length > 30) console.log(`  ... and ${tally.failures.length - 30} more`);
    // The server's log lines of the first failed requests (their request id is in the answer and the log).
    const logged = tally.failures
      .filter((f) => f.requestId)
      .sort((a, b) => Number(b.detail.startsWith('answered 5')) - Number(a.detail.startsWith('answered 5')))
      .slice(0, 5);
    if (logged.length > 0) {
      const logLines = readFileSync(server.logFile, 'utf8').split('\n');
      for (const f of logged) {
        console.log(`  log of request ${f.requestId}:`);
        for (const l of logLines.filter((l) => l.includes(f.requestId!)).slice(0, 6))
          console.log(`    ${l.slice(0, 1500)}`);
      }
    }
    line('server log: errors (level >= 50) / warnings', `${serverErrors} / ${server.warningCount()}`);
    for (const l of server.errors.slice(0, 10)) console.log(`  ${l}`);
    for (const l of server.warnings.slice(0, 5)) console.log(`  ${l}`);
    if (server.stderr.length > 0) {
      line('server stderr', `${server.stderr.length} line(s):`);
      for (const l of server.stderr.slice(0, 20)) console.log(`  ${l}`);
    }
    line(
      'server stop (SIGTERM)',
      exitCode === 0
        ? 'exited 0'
        : exitCode === 'timeout'
          ? 'did not exit in 40 s (killed)'
          : `exited ${exitCode}`,
    );
    console.log('');
    line(
      'callbacks: orders with their callback / expected',
      `${n(received)} / ${n(certain().length)}${uncertain > 0 ? ` (${uncertain} orders whose flow failed not counted)` : ''}; drained in ${fixed(drainSeconds, 0)} s`,
    );
    line(
      '  received by type',
      [...receiver.stats.byType]
        .sort()
        .map(([type, c]) => `${n(c)} ${type}`)
        .join(', '),
    );
    line(
      '  requests to the receiver',
      `${n(receiver.stats.requests)}: ${receiver.stats.refusedOnPurpose} first attempts refused (503) on purpose, ` +
        `${receiver.stats.redeliveredAfterRefusal} redelivered; ${receiver.stats.badSignatures.length} bad signatures ` +
        `(standardwebhooks), ${receiver.stats.duplicates.length} deliveries after a 200`,
    );
    line(
      '  outbox',
      outbox.map((r) => `${n(Number(r.events))} ${r.status} (${n(Number(r.attempts))} attempts)`).join(', '),
    );
    for (const p of callbackProblems) console.log(`  PROBLEM ${p}`);
    console.log('');

    const trendOf = (pick: (s: Sample) => number | null) =>
      memoryTrend(
        samples.flatMap((s) => {
          const value = pick(s);
          return value === null ? [] : [{ seconds: s.seconds, value }];
        }),
        warmupSeconds,
        durationSeconds,
      );
    const rss = trendOf((s) => s.rssMb);
    const isShort = minutes < VERDICT_MIN_MINUTES;
    console.log(
      `server memory, ${samples.length} samples every ${SAMPLE_SECONDS} s; warm-up ${fixed(warmupSeconds, 0)} s; ` +
        `"after warm-up" and "end" are medians of the ${Math.max(SAMPLE_SECONDS * 3, 30)} s after warm-up and before the end of the traffic:`,
    );
    const trendLine = (label: string, t: ReturnType<typeof memoryTrend>) =>
      line(
        label,
        `first ${fixed(t.first, 0)}, after warm-up ${fixed(t.base, 0)}, ` +
          `end ${fixed(t.end, 0)} (${t.end >= t.base ? '+' : ''}${fixed(((t.end - t.base) / t.base) * 100, 1)}%), max ${fixed(t.max, 0)} MB; ` +
          `slope over the second half ${fixed(t.slope, 2)} MB/min`,
      );
    trendLine('  RSS (/proc/<pid>/status VmRSS)', rss);
    trendLine(
      '  V8 heap used (process.memoryUsage)',
      trendOf((s) => s.heapMb),
    );
    trendLine(
      '  V8 heap after the last major GC (live set)',
      trendOf((s) => s.heapAfterGcMb),
    );
    const mb = (value: number | null) => (value === null ? '?' : fixed(value, 0));
    line(
      '  after the drain (idle)',
      `RSS ${mb(idle.rssMb)} MB, heap ${mb(idle.heapMb)} MB (${mb(idle.heapAfterGcMb)} after the last major GC)`,
    );
    const verdict = rss.grows
      ? `GROWTH TREND${isShort ? ` (indicative only under ${VERDICT_MIN_MINUTES} min)` : ''}`
      : `no growth trend${isShort ? ` (indicative only under ${VERDICT_MIN_MINUTES} min)` : ''}`;
    line(
      `  RSS verdict (growth: slope >= ${SLOPE_LIMIT_MB_PER_MIN} MB/min and end > +${END_GROWTH_LIMIT * 100}%)`,
      verdict,
    );
    console.log('');
    line(
      'database after the run',
      dbProblems.length === 0
        ? `OK (every order in the state its flow expects, every event delivered, ${stored.exported} exports succeeded, ${stored.settlements} settlements, ${stored.sessions} sessions)`
        : `${dbProblems.length} problem(s):`,
    );
    for (const p of dbProblems) console.log(`  PROBLEM ${p}`);
    line(
      'ledger:verify',
      report.ok
        ? `OK (${n(report.entries_checked)} entries checked)`
        : `${report.problems.length} problem(s)${report.truncated ? ' (more not listed)' : ''}:`,
    );
    for (const p of report.problems) console.log(`  ${p.invariant} (${p.merchant_no}): ${p.message}`);
    line(
      `load average (1 min) before / after, ${cpus().length} cores`,
      `${fixed(loadBefore)} / ${fixed(loadavg()[0])}`,
    );

    const reasons = [
      tally.failures.length > 0 && `${tally.failures.length} unexpected answers`,
      serverErrors > 0 && `${serverErrors} errors in the server log`,
      exitCode !== 0 && 'the server did not stop cleanly',
      callbackProblems.length > 0 && 'callbacks',
      dbProblems.length > 0 && 'the database after the run',
      !report.ok && 'ledger invariants',
      rss.grows && !isShort && 'memory growth',
    ].filter((r): r is string => typeof r === 'string');
    console.log('');
    console.log(reasons.length === 0 ? 'soak: OK' : `soak: FAILED (${reasons.join(', ')})`);
    if (reasons.length > 0) {
      keepLog = true;
      process.exitCode = 1;
    }
  } catch (error) {
    keepLog = true;
    throw error;
  } finally {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await Promise.race([server.exited, sleep(40_000)]);
      killServer();
    }
    process.off('exit', killServer);
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!keepLog) rmSync(logFile, { force: true });
    else console.log(`server log kept: ${logFile}`);
    await bench.drop();
  }
}
