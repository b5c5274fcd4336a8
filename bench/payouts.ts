import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import type { Db } from '../apps/server/src/db/client.ts';
import { signRequest } from '../apps/server/src/lib/gateway-signature.ts';
import type { LedgerReport } from '../apps/server/src/modules/ledger/index.ts';
import type * as LibModule from './lib.ts';

// Send money on PostgreSQL (DESIGN section 8), in the same run as its baseline: payout creation through
// the signed gateway (POST /gateway/v1/payouts) over real HTTP, the app listening on 127.0.0.1 as main.ts
// starts it, with JOBS=off so the sandbox channel's jobs (processing, then success) never run and only
// creation is measured. 16 clients, each signing its own requests with fresh nonces, against
// `pgbench -N -c 16 -j 2` on the same server:
//   (a) across 16 merchants (one per client);
//   (b) all 16 clients on one merchant: every payout holds amount + fee on the same balance row;
//   (c) as (a), each payout with an Idempotency-Key (its answer stored with it), as merchants retry safely.
// Target: >= 0.25 of pgbench's TPS in both, and ledger:verify clean after each run. Each run is cut in
// slices, each just after a slice of pgbench (lib's interleaved): the ratio compares the same minutes of
// a machine whose speed drifts. The HTTP clients run in a worker thread (this file, role in workerData)
// so they do not share the server's event loop, as pgbench's clients do not; they do share the cores.

export const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
/** Each run's length, cut into SLICES slices of as long a pgbench run and gateway run each. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const SLICES = Number(process.env.BENCH_SLICES ?? 5);
/**
 * Under the gateway's 3,000 requests a minute per merchant (GATEWAY_RATE_PER_MINUTE), or it answers 429:
 * each slice of (b) has a hot merchant of its own.
 */
const HOT_MERCHANT_REQUESTS = 2_900;
const PAYOUTS_PATH = '/gateway/v1/payouts';
const TARGET = 0.25;
/** Each merchant's money: far more than 16 clients can hold in a run (10.00 + 0.60 fee per payout). */
const FUNDS_MINOR = 10_000_000_000n;
const PAYEE = {
  amount: '10.00',
  account_type: 'individual',
  bank_code: 'ICBC',
  bank_name: '中国工商银行',
  branch_name: '上海分行',
  payee_name: '张三',
  account_no: '6222020200112233445',
};

export type Credentials = {
  no: string;
  accessKey: string;
  secret: string;
  /** Refunds (bench/refunds.ts): the merchant's seeded paid orders are this prefix and 8 digits (0-based). */
  orderPrefix?: string;
};
/** Refunds instead of payouts: client c's request i refunds `amount` of order first + i of merchant c. */
export type RefundCalls = { amount: string; first: number; perClient: number };
export type ClientsJob = {
  role: 'payout-clients';
  url: string;
  /** Client i signs as merchants[i % merchants.length]. */
  merchants: Credentials[];
  clients: number;
  seconds: number;
  maxRequests: number;
  tag: string;
  /** Each payout sends an Idempotency-Key (its out_trade_no). */
  keyed?: boolean;
  /** Refunds of the merchants' paid orders (one merchant per client), at most perClient each. */
  refund?: RefundCalls;
};
export type ClientsResult = {
  created: number;
  requests: number;
  seconds: number;
  /** Every answer by status and code: "201", "422 insufficient_funds", "0 ECONNRESET"... */
  answers: Record<string, number>;
  /** Each request's time to its answer, ms. */
  latencies: number[];
  firstRefusal: string | null;
};
type Answer = { status: number; body: string };

export const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** "201", or the status with the answer's code: "409 out_trade_no_taken". */
function answerKey(answer: Answer): string {
  if (answer.status === 201) return '201';
  try {
    const code = (JSON.parse(answer.body) as { code?: unknown }).code;
    return typeof code === 'string' ? `${answer.status} ${code}` : String(answer.status);
  } catch {
    return String(answer.status);
  }
}

/** The path and body of client `client`'s request `i`: a payout, or a refund of one of its merchant's orders. */
function callOf(job: ClientsJob, merchant: Credentials, client: number, i: number) {
  const reference = `${job.tag}-${client}-${i}`;
  if (!job.refund) return { path: PAYOUTS_PATH, body: JSON.stringify({ out_trade_no: reference, ...PAYEE }) };
  const tradeNo = `${merchant.orderPrefix}${String(job.refund.first + i).padStart(8, '0')}`;
  return {
    path: `/gateway/v1/collections/${tradeNo}/refunds`,
    body: JSON.stringify({ out_refund_no: reference, amount: job.refund.amount }),
  };
}

/**
 * Worker thread: `clients` loops creating payouts (or refunds) through the signed gateway until time or
 * count runs out.
 */
async function payoutClients(job: ClientsJob): Promise<ClientsResult> {
  // undici's pool, one kept-alive connection per client: about a third less CPU per request than
  // node:http's agent, CPU these clients take from the server they measure (pgbench's are C).
  const pool = new Pool(job.url, { connections: job.clients, pipelining: 1 });
  const post = async (path: string, headers: Record<string, string>, body: string): Promise<Answer> => {
    const answer = await pool.request({ path, method: 'POST', headers, body });
    return { status: answer.statusCode, body: await answer.body.text() };
  };
  const answers: Record<string, number> = {};
  const latencies: number[] = [];
  let requests = 0;
  let firstRefusal: string | null = null;
  const started = performance.now();
  const until = started + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.clients }, async (_, client) => {
      const merchant = job.merchants[client % job.merchants.length];
      const perClient = job.refund?.perClient ?? Infinity;
      for (let i = 0; performance.now() < until && requests < job.maxRequests && i < perClient; i++) {
        requests += 1;
        const { path, body } = callOf(job, merchant, client, i);
        const timestamp = Math.floor(Date.now() / 1000);
        const nonce = randomBytes(16).toString('base64url');
        const headers = {
          'content-type': 'application/json',
          'x-merchant-no': merchant.no,
          'x-access-key': merchant.accessKey,
          'x-timestamp': String(timestamp),
          'x-nonce': nonce,
          ...(job.keyed ? { 'idempotency-key': `${job.tag}-${client}-${i}` } : {}),
          'x-signature': signRequest(merchant.secret, {
            method: 'POST',
            pathWithQuery: path,
            timestamp,
            nonce,
            body,
          }),
        };
        const sent = performance.now();
        const answer = await post(path, headers, body).catch((error: Error & { code?: string }): Answer => ({
          status: 0,
          body: JSON.stringify({ code: error.code ?? error.message }),
        }));
        latencies.push(performance.now() - sent);
        const key = answerKey(answer);
        answers[key] = (answers[key] ?? 0) + 1;
        if (answer.status !== 201) firstRefusal ??= `${answer.status} ${answer.body.slice(0, 300)}`;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  const created = answers['201'] ?? 0;
  return { created, requests, seconds, answers, latencies, firstRefusal };
}

// The clients' worker thread: one per bench, started once (its start-up is not the server's CPU), running
// each slice's job as the main thread sends it.
if (!isMainThread && workerData?.role === 'payout-clients') {
  parentPort!.on('message', (job: ClientsJob) => {
    void payoutClients(job).then((result) => parentPort!.postMessage(result));
  });
}

/** The clients' worker thread: `run` sends it one job and answers its result; `close` ends it. */
export function clientsThread() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: 'payout-clients' } });
  let waiting: { resolve: (r: ClientsResult) => void; reject: (e: unknown) => void } | undefined;
  worker.on('message', (result: ClientsResult) => waiting?.resolve(result));
  worker.on('error', (error) => waiting?.reject(error));
  return {
    run: (job: Omit<ClientsJob, 'role'>) =>
      new Promise<ClientsResult>((resolve, reject) => {
        waiting = { resolve, reject };
        worker.postMessage({ role: 'payout-clients', ...job });
      }),
    close: () => worker.terminate(),
  };
}

/** "2899 x 201, 1 x 422 insufficient_funds", most frequent first. */
export const answers = (r: ClientsResult) =>
  Object.entries(r.answers)
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${count} x ${key}`)
    .join(', ');

/** The slices of one run as one result: counts and times added, answers and latencies pooled. */
export function merged(results: ClientsResult[]): ClientsResult {
  const answers: Record<string, number> = {};
  for (const r of results)
    for (const [key, count] of Object.entries(r.answers)) answers[key] = (answers[key] ?? 0) + count;
  return {
    created: sum(results.map((r) => r.created)),
    requests: sum(results.map((r) => r.requests)),
    seconds: sum(results.map((r) => r.seconds)),
    answers,
    latencies: results.flatMap((r) => r.latencies),
    firstRefusal: results.map((r) => r.firstRefusal).find((r) => r !== null) ?? null,
  };
}

type Lib = typeof LibModule;

/** ledger:verify's problems, then the checks of the stored rows that failed (each a message or false). */
export function problemsOf(report: Pick<LedgerReport, 'problems' | 'truncated'>, checks: (string | false)[]) {
  return [
    ...report.problems.map((p) => `${p.invariant} (${p.merchant_no}): ${p.message}`),
    ...(report.truncated ? ['(more problems not listed)'] : []),
    ...checks,
  ].filter((p): p is string => typeof p === 'string');
}

/** One line of the report: its label in a column, then its value. */
export const printLine = (label: string, value: string) => console.log(`${label.padEnd(58)}${value}`);

/** A run cut in slices (measureInSlices): pgbench's TPS and the clients' result of each, merged. */
export type SlicedRun = {
  baselines: number[];
  result: ClientsResult;
  slices: ClientsResult[];
  cpu: ReturnType<Lib['cpuMeter']>;
};

/**
 * One run: `slices` x (ANALYZE and a slice of pgbench -N, then the clients of `job` with `more(k)`), its
 * slices' results merged (lib's interleaved). Each slice of pgbench lasts as long as the clients' slice.
 */
export async function measureInSlices(
  setup: {
    lib: Lib;
    db: Db;
    benchUrl: string;
    run: (job: Omit<ClientsJob, 'role'>) => Promise<ClientsResult>;
    job: Omit<ClientsJob, 'role' | 'merchants' | 'seconds' | 'tag'>;
    slices: number;
  },
  tag: string,
  more: (k: number) => Pick<ClientsJob, 'merchants' | 'seconds'> & Partial<ClientsJob>,
): Promise<SlicedRun> {
  const { lib, db, benchUrl, run, job, slices } = setup;
  const { sql } = await import('drizzle-orm');
  const cpu = lib.cpuMeter();
  const { baselines, results } = await lib.interleaved(
    slices,
    async (k) => {
      // Statistics as autovacuum keeps them on a live database (this machine's PostgreSQL runs with
      // autovacuum off). The ledger's tables were created empty seconds ago: a backend that planned
      // a foreign key check of a posting or a fund flow when journal_entries filled one page kept a
      // sequential scan as it grew, and PostgreSQL's CPU per payout doubled within a run, in about
      // half the runs (seen with auto_explain). Autovacuum analyzes a table after 10% of it changes,
      // every minute at most; here each slice starts with ANALYZE, outside both measured windows.
      await db.execute(sql`analyze`);
      return lib.measurePgbench(benchUrl, { clients: job.clients, seconds: more(k).seconds });
    },
    (k) => cpu.during(() => run({ ...job, tag: `${tag}${k}`, ...more(k) })),
  );
  return { baselines, result: merged(results), slices: results, cpu };
}

/**
 * One run's lines: its TPS beside its pgbench slices', its ratio against the target, where the CPU went,
 * and `verified` (what the check after the run found).
 */
export function reportRun(
  { fixed }: Pick<Lib, 'fixed'>,
  {
    title,
    run,
    what,
    target,
    verified,
  }: {
    title: string;
    run: SlicedRun;
    what: string;
    target: number;
    verified: string;
  },
) {
  const { baselines, result: r, slices } = run;
  const tpsOf = (x: ClientsResult) => x.created / x.seconds;
  const sorted = [...r.latencies].sort((x, y) => x - y);
  const latency = `p50 ${fixed(percentile(sorted, 0.5), 1)} ms, p95 ${fixed(percentile(sorted, 0.95), 1)} ms`;
  const range = (values: number[], digits = 2) =>
    `${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)}`;
  // Slices of equal length: the ratio of the sums of their rates.
  const ratio = sum(slices.map(tpsOf)) / sum(baselines);
  console.log(title);
  printLine(
    '    pgbench -N, its slices',
    `${fixed(sum(baselines) / baselines.length, 0)} TPS (${range(baselines, 0)})`,
  );
  printLine(`    gateway ${what}s`, `${fixed(tpsOf(r), 0)} TPS in ${fixed(r.seconds, 1)} s; ${latency}`);
  printLine('    answers', answers(r));
  printLine(
    `    ratio gateway / pgbench   [target >= ${target}]`,
    `${fixed(ratio, 3)} (${ratio >= target ? 'met' : 'MISSED'}); slices ${range(slices.map((x, k) => tpsOf(x) / baselines[k]))}`,
  );
  printLine('    CPU while the gateway ran', run.cpu.report(r.created, what));
  printLine('    ledger:verify after the run', verified);
}

/**
 * What a gateway bench starts with (payouts, refunds), `label` naming its database: pgbench's tables in
 * it (scale 10, 1,000,000 accounts, as the other benches), the clients' worker thread, and the server as
 * main.ts runs it on 127.0.0.1 (request logs at info, here into /dev/null) with the configuration of
 * `env`. `footer` prints the machine's load and the run's time; `close` ends it all and drops the database.
 */
export async function startGatewayBench(label: string, env: Record<string, string>) {
  // Loaded here, not above: the worker thread loads this file too and needs none of it.
  const [{ buildApp }, { loadConfig }, lib] = await Promise.all([
    import('../apps/server/src/app.ts'),
    import('../apps/server/src/config.ts'),
    import('./lib.ts'),
  ]);
  const startedAt = performance.now();
  // The server's own pool size (DB_POOL_SIZE defaults to 20).
  const bench = await lib.createBenchDatabase(label, 20);
  const loadBefore = loadavg()[0];
  const logs = lib.serverLog();
  const clients = clientsThread();
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const close = async () => {
    await clients.close();
    await app?.close();
    logs.end();
    await bench.drop();
  };
  const footer = () => {
    // The figures move with whatever else runs on these cores: the 1-minute load average says how busy it was.
    printLine(
      `load average (1 min) before / after, ${cpus().length} cores`,
      `${lib.fixed(loadBefore)} / ${lib.fixed(loadavg()[0])}`,
    );
    printLine('whole run', `${lib.fixed((performance.now() - startedAt) / 1000, 1)} s`);
  };
  try {
    console.log(`${label}: database ${bench.name}, ${CLIENTS} clients, ${SECONDS} s per run`);
    await lib.run('pgbench', ['-i', '-q', '-s', '10', bench.url]);
    const config = loadConfig(env);
    app = await buildApp({ config, database: bench.database, logStream: logs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    return { lib, bench, db: bench.database.db, config, url, clients, footer, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function runPayouts(): Promise<void> {
  const [{ sql }, { queryRows }, { channels }, { createLedger, verifyLedger }, { createGatewayMerchant }] =
    await Promise.all([
      import('drizzle-orm'),
      import('../apps/server/src/db/client.ts'),
      import('../apps/server/src/db/schema/index.ts'),
      import('../apps/server/src/modules/ledger/index.ts'),
      import('../apps/server/test/factories/gateway.ts'),
    ]);
  // The jobs are left to worker processes that do not run (JOBS=off): sandbox payouts stay pending.
  // NODE_ENV=test only lifts the per-IP ceiling of 1,200 requests a minute, which every client here
  // shares from 127.0.0.1.
  const started = await startGatewayBench('payouts', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
    DATA_DIR: '/tmp/paydesk-bench',
    JOBS: 'off',
  });
  const { lib, bench, db, config, url, clients } = started;
  const { fixed } = lib;
  const runClients = clients.run;
  try {
    // 16 merchants (one per client) and a hot merchant per slice for all 16 clients; each with an access key,
    // 127.0.0.1 whitelisted, an open sandbox payout channel (CN, 1% + 0.50) and 100,000,000.00 available.
    const ledger = createLedger();
    const made = [];
    for (let i = 0; i < CLIENTS + SLICES; i++) {
      const m = await createGatewayMerchant(db, config.appKey, { channel: false });
      await db.insert(channels).values({
        merchantId: m.merchant.id,
        code: 'sandbox-pay',
        kind: 'payout',
        country: 'CN',
        currency: 'CNY',
        feeRatePpm: 10_000,
        fixedFeeMinor: 50n,
        minAmountMinor: 100n,
        maxAmountMinor: 5_000_000n,
        openedBy: 'bench',
      });
      await db.transaction((tx) =>
        ledger.post(tx, {
          merchantId: m.merchant.id,
          type: 'transfer_in',
          amountMinor: FUNDS_MINOR,
          refType: 'bench',
          refId: String(m.merchant.id),
          idempotencyKey: `bench:fund:${m.merchant.id}`,
        }),
      );
      made.push(m);
    }
    const credentials = made.map((m) => ({ no: m.merchant.no, accessKey: m.accessKey, secret: m.secret }));
    const spreadMerchants = credentials.slice(0, CLIENTS);
    const hotMerchants = credentials.slice(CLIENTS);
    await db.execute(sql`vacuum analyze`);

    /**
     * After a run: ledger:verify, and one stored payout (with its open hold) per answer 201 of the run,
     * whose slices tagged their payouts s0-..., s1-...
     */
    const check = async (tag: string, r: ClientsResult) => {
      const report = await verifyLedger(db);
      const [stored] = await queryRows<{ payouts: string; holds: string; pending: string }>(
        db,
        sql`select count(*)::text as payouts,
                   count(h.id)::text as holds,
                   count(*) filter (where p.status = 'pending')::text as pending
              from payouts p
              left join holds h on h.idempotency_key = 'payout:' || p.id || ':deduct' and h.status = 'open'
             where p.out_trade_no like ${`${tag}%-%`}`,
      );
      const problems = problemsOf(report, [
        Number(stored.payouts) !== r.created &&
          `${stored.payouts} payouts stored for ${r.created} answers 201`,
        Number(stored.holds) !== r.created && `${stored.holds} open holds for ${r.created} answers 201`,
        Number(stored.pending) !== r.created && `${stored.pending} pending for ${r.created} answers 201`,
      ]);
      return { ok: report.ok && problems.length === 0, entries: report.entries_checked, problems };
    };

    const clientsJob = { url, clients: CLIENTS, maxRequests: Number.MAX_SAFE_INTEGER };
    await runClients({ ...clientsJob, merchants: spreadMerchants, seconds: 1, tag: 'w' });
    const slice = SECONDS / SLICES;
    const sliced = { lib, db, benchUrl: bench.url, run: runClients, job: clientsJob, slices: SLICES };
    const measure = (tag: string, job: (k: number) => Partial<ClientsJob>) =>
      measureInSlices(sliced, tag, (k) => ({ merchants: spreadMerchants, seconds: slice, ...job(k) }));
    const spread = await measure('s', () => ({}));
    const spreadCheck = await check('s', spread.result);
    const hot = await measure('h', (k) => ({
      merchants: [hotMerchants[k]],
      maxRequests: HOT_MERCHANT_REQUESTS,
    }));
    const hotCheck = await check('h', hot.result);
    const keyed = await measure('k', () => ({ keyed: true }));
    const keyedCheck = await check('k', keyed.result);
    const [keys] = await queryRows<{ n: string }>(
      db,
      sql`select count(*)::text as n from idempotency_keys where key like 'k%-%' and response_status = 201`,
    );
    if (Number(keys.n) !== keyed.result.created) {
      keyedCheck.ok = false;
      keyedCheck.problems.push(`${keys.n} stored answers 201 for ${keyed.result.created} answers 201`);
    }

    const verified = (c: Awaited<ReturnType<typeof check>>, r: ClientsResult) =>
      c.ok
        ? `OK (${c.entries} entries checked; ${r.created} payouts = answers 201 = open holds)`
        : `${c.problems.length} problem(s):\n    ${c.problems.join('\n    ')}`;
    console.log('');
    console.log(
      'payout creation (POST /gateway/v1/payouts over HTTP, sandbox channel, JOBS=off, logs at info):',
    );
    console.log(
      `each run: ${SLICES} slices of pgbench -N -c ${CLIENTS} -j 2 -T ${fixed(slice, 1)}, each followed by ${fixed(slice, 1)} s of the gateway run`,
    );
    const report = (title: string, run: SlicedRun, c: Awaited<ReturnType<typeof check>>) =>
      reportRun(lib, { title, run, what: 'payout', target: TARGET, verified: verified(c, run.result) });
    report(`(a) ${CLIENTS} clients across ${CLIENTS} merchants (one each):`, spread, spreadCheck);
    report(
      `(b) ${CLIENTS} clients on one merchant (one hot balance row, another each slice; <= ${HOT_MERCHANT_REQUESTS} requests a slice):`,
      hot,
      hotCheck,
    );
    report('(c) as (a), each payout with an Idempotency-Key:', keyed, keyedCheck);
    const refusal = [spread, hot, keyed].map((run) => run.result.firstRefusal).find((r) => r !== null);
    if (refusal) console.log(`first refusal: ${refusal}`);
    started.footer();
    const runs: [Awaited<ReturnType<typeof check>>, ClientsResult][] = [
      [spreadCheck, spread.result],
      [hotCheck, hot.result],
      [keyedCheck, keyed.result],
    ];
    if (runs.some(([c, r]) => !c.ok || r.created !== r.requests)) process.exitCode = 1;
  } finally {
    await started.close();
  }
}
