import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { signRequest } from '../apps/server/src/lib/gateway-signature.ts';

// Send money on PostgreSQL (DESIGN section 8), in the same run as its baseline: payout creation through
// the signed gateway (POST /gateway/v1/payouts) over real HTTP, the app listening on 127.0.0.1 as main.ts
// starts it, with JOBS=off so the sandbox channel's jobs (processing, then success) never run and only
// creation is measured. 16 clients, each signing its own requests with fresh nonces, against
// `pgbench -N -c 16 -j 2` on the same server:
//   (a) across 16 merchants (one per client);
//   (b) all 16 clients on one merchant: every payout holds amount + fee on the same balance row;
//   (c) as (a), each payout with an Idempotency-Key (its answer stored with it), as merchants retry safely.
// Target: >= 0.25 of pgbench's TPS in both, and ledger:verify clean after each run. The HTTP clients run
// in a worker thread (this file, role in workerData) so they do not share the server's event loop, as
// pgbench's clients do not; they do share the machine's cores.

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Under the gateway's 3,000 requests a minute per merchant (GATEWAY_RATE_PER_MINUTE), or it answers 429. */
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

type Credentials = { no: string; accessKey: string; secret: string };
type ClientsJob = {
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
};
type ClientsResult = {
  created: number;
  requests: number;
  seconds: number;
  tps: number;
  /** Every answer by status and code: "201", "422 insufficient_funds", "0 ECONNRESET"... */
  answers: Record<string, number>;
  p50: number;
  p95: number;
  firstRefusal: string | null;
};
type Answer = { status: number; body: string };

/** One POST over node:http; the answer's body is read to the end. */
function post(target: URL, headers: Record<string, string>, body: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: PAYOUTS_PATH,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
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

/** Worker thread: `clients` loops creating payouts through the signed gateway until time or count runs out. */
async function payoutClients(job: ClientsJob): Promise<ClientsResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients });
  const target = new URL(job.url);
  const answers: Record<string, number> = {};
  const latencies: number[] = [];
  let requests = 0;
  let firstRefusal: string | null = null;
  const started = performance.now();
  const until = started + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.clients }, async (_, client) => {
      const merchant = job.merchants[client % job.merchants.length];
      for (let i = 0; performance.now() < until && requests < job.maxRequests; i++) {
        requests += 1;
        const body = JSON.stringify({ out_trade_no: `${job.tag}-${client}-${i}`, ...PAYEE });
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
            pathWithQuery: PAYOUTS_PATH,
            timestamp,
            nonce,
            body,
          }),
        };
        const sent = performance.now();
        const answer = await post(target, headers, body, agent).catch(
          (error: Error & { code?: string }): Answer => ({
            status: 0,
            body: JSON.stringify({ code: error.code ?? error.message }),
          }),
        );
        latencies.push(performance.now() - sent);
        const key = answerKey(answer);
        answers[key] = (answers[key] ?? 0) + 1;
        if (answer.status !== 201) firstRefusal ??= `${answer.status} ${answer.body.slice(0, 300)}`;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const created = answers['201'] ?? 0;
  return {
    created,
    requests,
    seconds,
    tps: created / seconds,
    answers,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    firstRefusal,
  };
}

if (!isMainThread && workerData?.role === 'payout-clients') {
  parentPort!.postMessage(await payoutClients(workerData as ClientsJob));
}

async function runClients(job: Omit<ClientsJob, 'role'>): Promise<ClientsResult> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: 'payout-clients', ...job } });
  const result = await new Promise<ClientsResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return result;
}

/** "2899 x 201, 1 x 422 insufficient_funds", most frequent first. */
const answers = (r: ClientsResult) =>
  Object.entries(r.answers)
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${count} x ${key}`)
    .join(', ');

export async function runPayouts(): Promise<void> {
  // Loaded here, not above: the worker thread loads this file too and needs none of it.
  const [
    { sql },
    { buildApp },
    { loadConfig },
    { queryRows },
    { channels },
    { createLedger, verifyLedger },
    { createGatewayMerchant },
    lib,
  ] = await Promise.all([
    import('drizzle-orm'),
    import('../apps/server/src/app.ts'),
    import('../apps/server/src/config.ts'),
    import('../apps/server/src/db/client.ts'),
    import('../apps/server/src/db/schema/index.ts'),
    import('../apps/server/src/modules/ledger/index.ts'),
    import('../apps/server/test/factories/gateway.ts'),
    import('./lib.ts'),
  ]);
  const { createBenchDatabase, fixed, measurePgbench, run, serverLog } = lib;

  const startedAt = performance.now();
  // The server's own pool size (DB_POOL_SIZE defaults to 20).
  const bench = await createBenchDatabase('payouts', 20);
  const loadBefore = loadavg()[0];
  const logs = serverLog();
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const { db } = bench.database;
    console.log(`payouts: database ${bench.name}, ${CLIENTS} clients, ${SECONDS} s per run`);

    // pgbench's own tables in the same database: scale 10 (1,000,000 accounts), as the other benches.
    await run('pgbench', ['-i', '-q', '-s', '10', bench.url]);
    const pgbenchTps = await measurePgbench(bench.url, { clients: CLIENTS, seconds: SECONDS });

    // The server as main.ts runs it (request logs at info, here into /dev/null), the jobs left to worker
    // processes that do not run (JOBS=off): sandbox payouts stay pending. NODE_ENV=test only lifts the
    // per-IP ceiling of 1,200 requests a minute, which every client here shares from 127.0.0.1.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
      DATA_DIR: '/tmp/paydesk-bench',
      JOBS: 'off',
    });
    app = await buildApp({ config, database: bench.database, logStream: logs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // 16 merchants (one per client) and one hot merchant for all 16 clients; each with an access key,
    // 127.0.0.1 whitelisted, an open sandbox payout channel (CN, 1% + 0.50) and 100,000,000.00 available.
    const ledger = createLedger();
    const made = [];
    for (let i = 0; i < CLIENTS + 1; i++) {
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
    const hotMerchant = credentials[CLIENTS];
    await db.execute(sql`vacuum analyze`);

    /** After a run: ledger:verify, and one stored payout (with its open hold) per answer 201 of the run. */
    const check = async (tag: string, r: ClientsResult) => {
      const report = await verifyLedger(db);
      const [stored] = await queryRows<{ payouts: string; holds: string; pending: string }>(
        db,
        sql`select count(*)::text as payouts,
                   count(h.id)::text as holds,
                   count(*) filter (where p.status = 'pending')::text as pending
              from payouts p
              left join holds h on h.idempotency_key = 'payout:' || p.id || ':deduct' and h.status = 'open'
             where p.out_trade_no like ${`${tag}-%`}`,
      );
      const problems = [
        ...report.problems.map((p) => `${p.invariant} (${p.merchant_no}): ${p.message}`),
        ...(report.truncated ? ['(more problems not listed)'] : []),
        Number(stored.payouts) !== r.created &&
          `${stored.payouts} payouts stored for ${r.created} answers 201`,
        Number(stored.holds) !== r.created && `${stored.holds} open holds for ${r.created} answers 201`,
        Number(stored.pending) !== r.created && `${stored.pending} pending for ${r.created} answers 201`,
      ].filter((p): p is string => typeof p === 'string');
      return { ok: report.ok && problems.length === 0, entries: report.entries_checked, problems };
    };

    const clientsJob = { url, clients: CLIENTS, maxRequests: Number.MAX_SAFE_INTEGER };
    await runClients({ ...clientsJob, merchants: spreadMerchants, seconds: 1, tag: 'w' });
    // Statistics as autovacuum keeps them on a live database. The ledger's tables were created empty
    // seconds ago: planned on those statistics, every foreign key check of a posting, a fund flow or a
    // hold and the entry-balance trigger scan postings, journal_entries and holds whole as they grow
    // (45 million rows read in 6 s, measured), a property of a database a few seconds old, not of the
    // code. Autovacuum analyzes a live table after 10% of it changes, but its first look can be a minute
    // away; each run here lasts 10 s.
    await db.execute(sql`analyze`);
    const spread = await runClients({
      ...clientsJob,
      merchants: spreadMerchants,
      seconds: SECONDS,
      tag: 's',
    });
    const spreadCheck = await check('s', spread);
    const hot = await runClients({
      ...clientsJob,
      merchants: [hotMerchant],
      seconds: SECONDS,
      maxRequests: HOT_MERCHANT_REQUESTS,
      tag: 'h',
    });
    const hotCheck = await check('h', hot);
    const keyed = await runClients({
      ...clientsJob,
      merchants: spreadMerchants,
      seconds: SECONDS,
      tag: 'k',
      keyed: true,
    });
    const keyedCheck = await check('k', keyed);
    const [keys] = await queryRows<{ n: string }>(
      db,
      sql`select count(*)::text as n from idempotency_keys where key like 'k-%' and response_status = 201`,
    );
    if (Number(keys.n) !== keyed.created) {
      keyedCheck.ok = false;
      keyedCheck.problems.push(`${keys.n} stored answers 201 for ${keyed.created} answers 201`);
    }

    const line = (label: string, value: string) => console.log(`${label.padEnd(58)}${value}`);
    const latency = (r: ClientsResult) => `p50 ${fixed(r.p50, 1)} ms, p95 ${fixed(r.p95, 1)} ms`;
    const verdict = (ratio: number) => (ratio >= TARGET ? 'met' : 'MISSED');
    const verified = (c: Awaited<ReturnType<typeof check>>, r: ClientsResult) =>
      c.ok
        ? `OK (${c.entries} entries checked; ${r.created} payouts = answers 201 = open holds)`
        : `${c.problems.length} problem(s):\n    ${c.problems.join('\n    ')}`;
    console.log('');
    console.log(
      'payout creation (POST /gateway/v1/payouts over HTTP, sandbox channel, JOBS=off, logs at info):',
    );
    line(`pgbench -N -c ${CLIENTS} -j 2 -T ${SECONDS}`, `${fixed(pgbenchTps, 0)} TPS`);
    /** One run's lines: its TPS, its answers, its ratio to pgbench, and ledger:verify after it. */
    const report = (title: string, r: ClientsResult, c: Awaited<ReturnType<typeof check>>) => {
      const ratio = r.tps / pgbenchTps;
      console.log(title);
      line('    gateway payouts', `${fixed(r.tps, 0)} TPS in ${fixed(r.seconds, 1)} s; ${latency(r)}`);
      line('    answers', answers(r));
      line(`    ratio gateway / pgbench   [target >= ${TARGET}]`, `${fixed(ratio)} (${verdict(ratio)})`);
      line('    ledger:verify after the run', verified(c, r));
    };
    report(`(a) ${CLIENTS} clients across ${CLIENTS} merchants (one each):`, spread, spreadCheck);
    report(
      `(b) ${CLIENTS} clients on one merchant (one hot balance row; <= ${HOT_MERCHANT_REQUESTS} requests):`,
      hot,
      hotCheck,
    );
    report('(c) as (a), each payout with an Idempotency-Key:', keyed, keyedCheck);
    const refusal = spread.firstRefusal ?? hot.firstRefusal ?? keyed.firstRefusal;
    if (refusal) console.log(`first refusal: ${refusal}`);
    // The figures move with whatever else runs on these cores: the 1-minute load average says how busy it was.
    line(
      `load average (1 min) before / after, ${cpus().length} cores`,
      `${fixed(loadBefore)} / ${fixed(loadavg()[0])}`,
    );
    line('whole run', `${fixed((performance.now() - startedAt) / 1000, 1)} s`);
    const runs: [Awaited<ReturnType<typeof check>>, ClientsResult][] = [
      [spreadCheck, spread],
      [hotCheck, hot],
      [keyedCheck, keyed],
    ];
    if (runs.some(([c, r]) => !c.ok || r.created !== r.requests)) process.exitCode = 1;
  } finally {
    await app?.close();
    logs.end();
    await bench.drop();
  }
}
