import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Currency } from '@paydesk/shared';
import { signRequest } from '../apps/server/src/lib/gateway-signature.ts';
import { signWebhook, webhookHeaders } from '../apps/server/src/lib/webhooks.ts';

// Receive money on PostgreSQL, in the same run as its baselines:
// 1. Collection creation through the signed gateway over real HTTP (the app listening on 127.0.0.1, as
//    main.ts starts it, with JOBS=off), 16 clients each signing its own requests with fresh nonces,
//    against `pgbench -N -c 16 -j 2` on the same server. Target: >= 0.4 of pgbench's TPS.
//    Printed beside it: the same clients against two API nodes (a second app in a worker thread), a
//    do-nothing node:http server, and the gateway's statement run by pgbench itself.
// 2. Callback delivery by one worker (callbacks.attempt(id), at the worker's concurrency) against a bare
//    loop of Standard Webhooks POSTs to the same local receiver. Target: >= 0.3 of the bare loop's rate.
// The HTTP clients and the receiver run in worker threads (this file, role in workerData), so they do not
// share the server's event loop, as pgbench's clients do not; they do share the machine's cores.

const CLIENTS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Under the gateway's 3,000 requests a minute per merchant (GATEWAY_RATE_PER_MINUTE), or it answers 429. */
const HOT_MERCHANT_REQUESTS = 2_900;
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 2000);
/** pg-boss hands one worker's callback.deliver handler one job at a time (batchSize 1, localConcurrency 1). */
const WORKER_CONCURRENCY = 1;
/** For comparison: what four deliveries at a time would give (a localConcurrency of 4). */
const WIDER_CONCURRENCY = 4;
const COLLECTIONS_PATH = '/gateway/v1/collections';

type Credentials = { no: string; accessKey: string; secret: string };
export type ClientsJob = {
  role: 'gateway-clients';
  /** Client i calls urls[i % urls.length] (one URL per API node). */
  urls: string[];
  /** Client i signs as merchants[i % merchants.length]. */
  merchants: Credentials[];
  clients: number;
  seconds: number;
  maxRequests: number;
  tag: string;
};
export type ClientsResult = {
  created: number;
  requests: number;
  seconds: number;
  tps: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  firstRefusal: string | null;
};
type ReceiverCounts = { requests: number; uniqueIds: number; badSignatures: number };
type Answer = { status: number; body: string };

/** One POST over node:http; the answer's body is read to the end. */
function post(
  target: URL,
  path: string,
  headers: Record<string, string>,
  body: string,
  agent: Agent | false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
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

/**
 * newTradeNo is the second plus 6 random digits, and the insert's ON CONFLICT DO NOTHING covers the
 * trade_no's unique key too: two orders created in the same second with the same digits make the second
 * one answer 409 out_trade_no_taken with no existing trade_no, though its out_trade_no is new.
 */
const collisionOf = (body: string) => {
  try {
    const parsed = JSON.parse(body) as { code?: string; trade_no?: unknown };
    return parsed.code === 'out_trade_no_taken' && parsed.trade_no === null;
  } catch {
    return false;
  }
};

/** Worker thread: `clients` loops creating collections through the signed gateway until time or count runs out. */
async function gatewayClients(job: ClientsJob): Promise<ClientsResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients });
  const targets = job.urls.map((url) => new URL(url));
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let requests = 0;
  let firstRefusal: string | null = null;
  const started = performance.now();
  const until = started + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.clients }, async (_, client) => {
      const merchant = job.merchants[client % job.merchants.length];
      const target = targets[client % targets.length];
      for (let i = 0; performance.now() < until && requests < job.maxRequests; i++) {
        requests += 1;
        const body = JSON.stringify({ out_trade_no: `${job.tag}-${client}-${i}`, amount: '100.00' });
        const timestamp = Math.floor(Date.now() / 1000);
        const nonce = randomBytes(16).toString('base64url');
        const headers = {
          'content-type': 'application/json',
          'x-merchant-no': merchant.no,
          'x-access-key': merchant.accessKey,
          'x-timestamp': String(timestamp),
          'x-nonce': nonce,
          'x-signature': signRequest(merchant.secret, {
            method: 'POST',
            pathWithQuery: COLLECTIONS_PATH,
            timestamp,
            nonce,
            body,
          }),
        };
        const sent = performance.now();
        const answer = await post(target, COLLECTIONS_PATH, headers, body, agent).catch(
          (error: Error): Answer => ({ status: 0, body: error.message }),
        );
        latencies.push(performance.now() - sent);
        // A 409 naming no existing order: the new trade_no hit another order's (see collisionOf).
        const status =
          answer.status === 409 && collisionOf(answer.body) ? '409 trade_no collision' : answer.status;
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (answer.status !== 201) firstRefusal ??= `${answer.status} ${answer.body.slice(0, 300)}`;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const created = statuses['201'] ?? 0;
  return {
    created,
    requests,
    seconds,
    tps: created / seconds,
    statuses,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    firstRefusal,
  };
}

/**
 * Worker thread: the merchant's callback receiver. It reads each body, checks the Standard Webhooks
 * signature as a merchant would, and answers 200. A message {secret} resets its counts and answers them.
 */
function receiver() {
  let secret = '';
  let counts: ReceiverCounts = { requests: 0, uniqueIds: 0, badSignatures: 0 };
  let ids = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = Number(req.headers['webhook-timestamp']);
      counts.requests += 1;
      ids.add(id);
      if (req.headers['webhook-signature'] !== signWebhook({ id, timestamp, body, secret })) {
        counts.badSignatures += 1;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort!.postMessage((server.address() as AddressInfo).port));
  parentPort!.on('message', (message: { secret: string }) => {
    parentPort!.postMessage({ ...counts, uniqueIds: ids.size });
    secret = message.secret;
    counts = { requests: 0, uniqueIds: 0, badSignatures: 0 };
    ids = new Set();
  });
}

/**
 * Worker thread: the ceiling of any Node server here. A node:http server that reads each body and answers
 * 201 with a body the size of a collection's, doing nothing else (no routing, no signature, no database).
 */
function noopServer() {
  const answer = JSON.stringify({
    trade_no: 'C2026112506000012345678',
    out_trade_no: 'x'.repeat(12),
    status: 'to_be_paid',
    amount: '100.00',
    fee: '1.50',
    currency: 'CNY',
    channel: 'sandbox',
    pay_url: `http://127.0.0.1/sandbox/pay/C2026112506000012345678`,
    expires_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
    paid_at: null,
    settlement_status: 'unsettled',
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(answer));
  });
  server.listen(0, '127.0.0.1', () => parentPort!.postMessage((server.address() as AddressInfo).port));
}

/** The app's environment in the bench, for the main thread's node and a second one's (apiNode). */
export const APP_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
  DATA_DIR: '/tmp/paydesk-bench',
  JOBS: 'off',
  NOTIFY_ALLOW_PRIVATE: 'true',
};

/**
 * Worker thread: a second API node, as a deployment runs several behind a load balancer (README, "Running
 * at scale"): the app built as in the main thread, with its own event loop and pool on the same database.
 * Answers its port; a message closes it.
 */
async function apiNode(databaseUrl: string) {
  const [{ buildApp }, { loadConfig }, { openDatabase }, { serverLog }] = await Promise.all([
    import('../apps/server/src/app.ts'),
    import('../apps/server/src/config.ts'),
    import('../apps/server/src/db/client.ts'),
    import('./lib.ts'),
  ]);
  const database = await openDatabase({ url: databaseUrl, poolSize: 20, statementTimeoutMs: 600_000 });
  const logs = serverLog();
  const app = await buildApp({
    config: loadConfig(APP_ENV),
    database,
    logStream: logs,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  parentPort!.once('message', () => {
    void (async () => {
      await app.close();
      await database.close();
      logs.end();
      parentPort!.postMessage('closed');
    })();
  });
  parentPort!.postMessage((app.server.address() as AddressInfo).port);
}

if (!isMainThread && workerData?.role === 'api-node') {
  await apiNode((workerData as { databaseUrl: string }).databaseUrl);
} else if (!isMainThread && workerData?.role === 'noop-server') {
  noopServer();
} else if (!isMainThread && workerData?.role === 'gateway-clients') {
  parentPort!.postMessage(await gatewayClients(workerData as ClientsJob));
} else if (!isMainThread && workerData?.role === 'receiver') {
  receiver();
}

/**
 * pgbench's script of the gateway's statement for a collection on a remembered key and channel (as
 * gateway.repository.ts and collections.repository.ts write it: the nonce's claim and the order's insert in
 * one), for merchants first..last whose collection channel's id is the merchant's id + offset: a fresh
 * nonce and out_trade_no each time.
 */
function gatewayStatementsScript(first: number, last: number, offset: number): string {
  return `\\set m random(${first}, ${last})
\\set r random(1, 1000000000000)
with k as (select 1 from access_keys k join merchants m on m.id = k.merchant_id where k.merchant_id = :m and m.status = 'active' and array_to_string(m.ip_whitelist, ' ') = '127.0.0.1'), n as (insert into gateway_nonces (merchant_id, nonce, created_at) select :m, 'pgb' || :r || '-' || :client_id, now() where exists (select 1 from k) on conflict (merchant_id, nonce) do update set created_at = excluded.created_at where gateway_nonces.created_at < now() - interval '10 minutes' returning nonce), ins as (insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor, fee_minor, currency, status, settlement_status, expires_at, created_at) select :m, :m + ${offset}, 'sandbox', 'P' || :r || '-' || :client_id, 'pgb' || :r || '-' || :client_id, 10000, 150, 'CNY', 'to_be_paid', 'unsettled', now() + interval '30 minutes', now() where exists (select 1 from channels c where c.id = :m + ${offset} and c.merchant_id = :m and c.kind = 'collection' and c.status = 'open' and c.code = 'sandbox' and c.fee_rate_ppm = 15000 and not exists (select 1 from channels o where o.merchant_id = c.merchant_id and o.kind = 'collection' and o.status = 'open' and o.id < c.id)) and exists (select 1 from n) on conflict (merchant_id, out_trade_no) do nothing returning *) select exists (select 1 from k) as current, exists (select 1 from n) as claimed, ins.* from (select 1) as one left join ins on true;
`;
}

/** "2899 x 201, 1 x 409 trade_no collision"; or only the answers other than 201. */
const statuses = (r: ClientsResult, with201 = true) =>
  Object.entries(r.statuses)
    .filter(([status]) => with201 || status !== '201')
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');

/** Starts this file in a worker thread and answers its first message. */
function startWorker<T>(data: object): { worker: Worker; first: Promise<T> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  const first = new Promise<T>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { worker, first };
}

/** The worker's next message after sending it one. */
function ask<T>(worker: Worker, message: object): Promise<T> {
  return new Promise<T>((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(message);
  });
}

/** One run of the collection clients (gatewayClients) in a worker thread of their own. */
export async function runClients(job: Omit<ClientsJob, 'role'>): Promise<ClientsResult> {
  const { worker, first } = startWorker<ClientsResult>({ role: 'gateway-clients', ...job });
  const result = await first;
  await worker.terminate();
  return result;
}

/** Runs fn over the items, `concurrency` at a time; answers the elapsed seconds. */
async function eachAtOnce<T>(items: T[], concurrency: number, fn: (item: T) => Promise<unknown>) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

export async function runCollections(): Promise<void> {
  // Loaded here, not above: the worker threads load this file too and need none of it.
  const [{ sql }, { buildApp }, { loadConfig }, { queryRows }, { createGatewayMerchant }, lib] =
    await Promise.all([
      import('drizzle-orm'),
      import('../apps/server/src/app.ts'),
      import('../apps/server/src/config.ts'),
      import('../apps/server/src/db/client.ts'),
      import('../apps/server/test/factories/gateway.ts'),
      import('./lib.ts'),
    ]);
  const { createBenchDatabase, fixed, measurePgbench, run, serverLog } = lib;

  // The server's own pool size (DB_POOL_SIZE defaults to 20).
  const bench = await createBenchDatabase('collections', 20);
  const loadBefore = loadavg()[0];
  const receiverThread = startWorker<number>({ role: 'receiver' });
  const logs = serverLog();
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const { db } = bench.database;
    console.log(
      `collections: database ${bench.name}, ${CLIENTS} clients, ${SECONDS} s per run, ${CALLBACKS} callbacks per concurrency`,
    );

    // pgbench's own tables in the same database: scale 10 (1,000,000 accounts), as ledger-deductions.
    await run('pgbench', ['-i', '-q', '-s', '10', bench.url]);
    const pgbenchTps = await measurePgbench(bench.url, { clients: CLIENTS, seconds: SECONDS });

    // The server as main.ts runs it (request logs at info, here into /dev/null), with the jobs left to
    // worker processes (JOBS=off) so no worker competes; NODE_ENV=test only lifts the per-IP ceiling of
    // 1,200 requests a minute, which every client here would share from 127.0.0.1.
    const config = loadConfig(APP_ENV);
    app = await buildApp({ config, database: bench.database, logStream: logs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const urls = [`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`];
    const receiverUrl = `http://127.0.0.1:${await receiverThread.first}/paydesk/notify`;

    // 16 merchants (one per client), one hot merchant for all 16 clients, one receiving callbacks, and 16
    // more for the two-node run (each merchant may send 3,000 requests a minute to a process, and the
    // first runs spend most of that); each with an access key, 127.0.0.1 whitelisted and an open sandbox
    // collection channel (manual, 1.5%).
    const made = [];
    for (let i = 0; i < 2 * CLIENTS + 2; i++) {
      made.push(await createGatewayMerchant(db, config.appKey, { notifyUrl: receiverUrl }));
    }
    const credentials = made.map((m) => ({ no: m.merchant.no, accessKey: m.accessKey, secret: m.secret }));
    const spreadMerchants = credentials.slice(0, CLIENTS);
    const hotMerchant = credentials[CLIENTS];
    const callbackMerchant = made[CLIENTS + 1];
    const twoNodeMerchants = credentials.slice(CLIENTS + 2);
    await db.execute(sql`vacuum analyze`);

    const clientsJob = { urls, clients: CLIENTS, maxRequests: Number.MAX_SAFE_INTEGER };
    const warmup = await runClients({ ...clientsJob, merchants: spreadMerchants, seconds: 1, tag: 'w' });
    const spread = await runClients({
      ...clientsJob,
      merchants: spreadMerchants,
      seconds: SECONDS,
      tag: 's',
    });
    const hot = await runClients({
      ...clientsJob,
      merchants: [hotMerchant],
      seconds: SECONDS,
      maxRequests: HOT_MERCHANT_REQUESTS,
      tag: 'h',
    });

    // Two API nodes on the same database (the main thread's and one in a worker thread), the clients
    // split between them: what the README's several nodes give on these two cores.
    const secondNode = startWorker<number>({ role: 'api-node', databaseUrl: bench.url });
    const twoNodes = { ...clientsJob, urls: [...urls, `http://127.0.0.1:${await secondNode.first}`] };
    const warmupTwo = await runClients({ ...twoNodes, merchants: twoNodeMerchants, seconds: 1, tag: 'w2' });
    const spreadTwo = await runClients({
      ...twoNodes,
      merchants: twoNodeMerchants,
      seconds: SECONDS,
      tag: 's2',
    });
    await ask(secondNode.worker, {});
    await secondNode.worker.terminate();

    // Two ceilings, in the same run: (a) a node:http server in a worker thread that answers 201 doing
    // nothing, for the same clients: what any Node server can reach here with these clients on these
    // cores; (b) the gateway's one statement for a collection (the nonce's claim against the remembered
    // key and the order's insert against the remembered channel) run by pgbench itself: what the
    // database allows. The merchants' ids and their channels' ids are both consecutive (made one after another).
    const noop = startWorker<number>({ role: 'noop-server' });
    const noopRun = await runClients({
      ...clientsJob,
      urls: [`http://127.0.0.1:${await noop.first}`],
      merchants: spreadMerchants,
      seconds: SECONDS,
      tag: 'noop',
    });
    await noop.worker.terminate();
    // Invariants: one order per 201, no job queued per order (the expiry sweep closes them; the channel
    // is manual, so no sandbox completion), and one claimed nonce per order.
    const [stored] = await queryRows<{
      orders: string;
      trade_nos: string;
      order_jobs: string;
      nonces: string;
    }>(
      db,
      sql`select (select count(*) from collections) as orders,
                 (select count(distinct trade_no) from collections) as trade_nos,
                 (select count(*) from pgboss.job
                   where name in ('collection.expire', 'sandbox.complete')) as order_jobs,
                 (select count(*) from gateway_nonces) as nonces`,
    );
    const gatewayRuns = [warmup, spread, hot, warmupTwo, spreadTwo];
    const answered201 = gatewayRuns.reduce((sum, r) => sum + r.created, 0);
    const gatewayCollisions = gatewayRuns.reduce(
      (sum, r) => sum + (r.statuses['409 trade_no collision'] ?? 0),
      0,
    );
    const gatewayProblems = [
      Number(stored.orders) !== answered201 && `${stored.orders} orders for ${answered201} answers 201`,
      Number(stored.trade_nos) !== Number(stored.orders) && 'a trade_no appears twice',
      Number(stored.order_jobs) !== 0 && `${stored.order_jobs} jobs queued for single orders`,
      // A refusal after the guard (the trade_no collision) has claimed its nonce too.
      Number(stored.nonces) !== answered201 + gatewayCollisions &&
        `${stored.nonces} nonces for ${answered201 + gatewayCollisions} calls past the signature check`,
      ...[spread, hot, spreadTwo].map(
        (r, i) => r.created !== r.requests && `${['spread', 'hot', 'two nodes'][i]}: ${statuses(r, false)}`,
      ),
    ].filter((p): p is string => typeof p === 'string');

    // (b), after the invariants above: pgbench's orders and nonces are not answers of ours.
    const offsets = new Set(made.slice(0, CLIENTS).map((m) => Number(m.channel!.id) - Number(m.merchant.id)));
    let statementsTps: number | undefined;
    if (offsets.size === 1) {
      const first = Number(made[0].merchant.id);
      const script = path.join(tmpdir(), `paydesk-bench-collection-${process.pid}.sql`);
      writeFileSync(script, gatewayStatementsScript(first, first + CLIENTS - 1, [...offsets][0]));
      try {
        statementsTps = await measurePgbench(bench.url, { clients: CLIENTS, seconds: SECONDS, script });
      } finally {
        rmSync(script, { force: true });
      }
    }

    // Callbacks: N paid orders of the callback merchant, each with a pending event to the receiver.
    const { collections, callbacks } = app.services;
    const merchantRef = {
      id: callbackMerchant.merchant.id,
      no: callbackMerchant.merchant.no,
      name: callbackMerchant.merchant.name,
      currency: callbackMerchant.merchant.currency as Currency,
    };
    const secret = callbackMerchant.webhookSecret;
    const target = new URL(receiverUrl);
    const callbackProblems: string[] = [];
    const delivery = [];
    let serviceCollisions = 0;
    for (const concurrency of [WORKER_CONCURRENCY, WIDER_CONCURRENCY]) {
      const numbers = Array.from({ length: CALLBACKS }, (_, i) => `cb${concurrency}-${i}`);
      const tradeNos: string[] = [];
      await eachAtOnce(numbers, CLIENTS, async (outTradeNo) => {
        for (;;) {
          try {
            const row = await collections.create(merchantRef, { out_trade_no: outTradeNo, amount: '10.00' });
            tradeNos.push(row.tradeNo);
            return;
          } catch (error) {
            // The trade_no collision (collisionOf): nothing was stored, so the same order is sent again.
            const fields = (error as { status?: number; fields?: { trade_no?: unknown } }).fields;
            if (!fields || fields.trade_no !== null) throw error;
            serviceCollisions += 1;
          }
        }
      });
      await eachAtOnce(tradeNos, CLIENTS, (tradeNo) => collections.finish(tradeNo, 'paid'));
      const events = await queryRows<{ id: string; payload: string }>(
        db,
        sql`select id, payload from callback_events where merchant_id = ${merchantRef.id} and status = 'pending'`,
      );
      if (events.length !== CALLBACKS)
        throw new Error(`${events.length} pending callbacks, not ${CALLBACKS}`);
      await db.execute(sql`vacuum analyze callback_events`);

      // The bare loops: the same signed bodies, a fresh connection each (as deliverWebhook: agent false),
      // then over kept-alive connections.
      const bareLoop = async (agent: Agent | false) => {
        await ask(receiverThread.worker, { secret });
        const seconds = await eachAtOnce(events, concurrency, async (event) => {
          const headers = webhookHeaders({
            id: event.id,
            timestamp: Math.floor(Date.now() / 1000),
            body: event.payload,
            secret,
          });
          const answer = await post(target, target.pathname, headers, event.payload, agent);
          if (answer.status !== 200) throw new Error(`The receiver answered ${answer.status}`);
        });
        return {
          rate: CALLBACKS / seconds,
          received: await ask<ReceiverCounts>(receiverThread.worker, { secret }),
        };
      };
      const bare = await bareLoop(false);
      const keepAlive = new Agent({ keepAlive: true, maxSockets: concurrency });
      const bareKeptAlive = await bareLoop(keepAlive);
      keepAlive.destroy();

      let failed = 0;
      const seconds = await eachAtOnce(events, concurrency, async (event) => {
        const result = await callbacks.attempt(event.id);
        if (!result?.ok) failed += 1;
      });
      const ours = {
        rate: CALLBACKS / seconds,
        received: await ask<ReceiverCounts>(receiverThread.worker, { secret }),
      };

      for (const [label, received] of [
        ['bare loop', bare.received],
        ['bare loop (keep-alive)', bareKeptAlive.received],
        ['attempt()', ours.received],
      ] as const) {
        if (
          received.requests !== CALLBACKS ||
          received.uniqueIds !== CALLBACKS ||
          received.badSignatures > 0
        ) {
          callbackProblems.push(
            `${label} at ${concurrency}: the receiver got ${received.requests} requests, ${received.uniqueIds} ids, ${received.badSignatures} bad signatures`,
          );
        }
      }
      if (failed > 0) callbackProblems.push(`${failed} attempts failed at concurrency ${concurrency}`);
      delivery.push({ concurrency, bare: bare.rate, bareKeptAlive: bareKeptAlive.rate, ours: ours.rate });
    }

    // Every event of the callback merchant delivered at its first attempt, and that attempt logged as a 200.
    const [outbox] = await queryRows<{
      events: string;
      delivered_once: string;
      attempts_200: string;
      attempts: string;
    }>(
      db,
      sql`select (select count(*) from callback_events where merchant_id = ${merchantRef.id}) as events,
                 (select count(*) from callback_events where merchant_id = ${merchantRef.id}
                    and status = 'delivered' and attempts = 1) as delivered_once,
                 (select count(*) filter (where a.status_code = 200) from callback_attempts a
                    join callback_events e on e.id = a.event_id where e.merchant_id = ${merchantRef.id}) as attempts_200,
                 (select count(*) from callback_attempts a
                    join callback_events e on e.id = a.event_id where e.merchant_id = ${merchantRef.id}) as attempts`,
    );
    const expectedEvents = CALLBACKS * delivery.length;
    if (
      [outbox.events, outbox.delivered_once, outbox.attempts_200, outbox.attempts].some(
        (count) => Number(count) !== expectedEvents,
      )
    ) {
      callbackProblems.push(
        `${outbox.events} events, ${outbox.delivered_once} delivered at the first attempt, ${outbox.attempts_200} attempts of ${outbox.attempts} answered 200 (expected ${expectedEvents} each)`,
      );
    }

    const line = (label: string, value: string) => console.log(`${label.padEnd(62)}${value}`);
    const latency = (r: ClientsResult) => `p50 ${fixed(r.p50, 1)} ms, p95 ${fixed(r.p95, 1)} ms`;
    console.log('');
    console.log('1. collection creation (POST /gateway/v1/collections over HTTP, JOBS=off, logs at info):');
    line(`pgbench -N -c ${CLIENTS} -j 2 -T ${SECONDS}`, `${fixed(pgbenchTps, 0)} TPS`);
    line(
      `gateway, ${CLIENTS} clients, one merchant each`,
      `${fixed(spread.tps, 0)} TPS (${statuses(spread)} in ${fixed(spread.seconds, 1)} s; ${latency(spread)})`,
    );
    line('ratio gateway / pgbench   [target >= 0.4]', fixed(spread.tps / pgbenchTps));
    line(
      `gateway, ${CLIENTS} clients, one hot merchant (<= ${HOT_MERCHANT_REQUESTS} requests)`,
      `${fixed(hot.tps, 0)} TPS (${statuses(hot)} in ${fixed(hot.seconds, 1)} s; ${latency(hot)})`,
    );
    line('ratio hot merchant / pgbench', fixed(hot.tps / pgbenchTps));
    line(
      `gateway, two API nodes, ${CLIENTS} clients, one merchant each`,
      `${fixed(spreadTwo.tps, 0)} TPS (${statuses(spreadTwo)} in ${fixed(spreadTwo.seconds, 1)} s; ${latency(spreadTwo)})`,
    );
    line('ratio two nodes / pgbench', fixed(spreadTwo.tps / pgbenchTps));
    line(
      'ceiling: node:http answering 201 doing nothing, same clients',
      `${fixed(noopRun.tps, 0)} TPS (ratio to pgbench ${fixed(noopRun.tps / pgbenchTps)}; the gateway reaches ${fixed(spread.tps / noopRun.tps)} of it)`,
    );
    line(
      "ceiling: the gateway's statement by pgbench -M prepared",
      statementsTps === undefined
        ? 'not run (the channels ids are not the merchants ids + one offset)'
        : `${fixed(statementsTps, 0)} TPS (ratio to pgbench ${fixed(statementsTps / pgbenchTps)})`,
    );
    if (spread.firstRefusal ?? hot.firstRefusal)
      console.log(`first refusal: ${spread.firstRefusal ?? hot.firstRefusal}`);
    line(
      'invariants after the run',
      gatewayProblems.length === 0
        ? `OK (${stored.orders} orders = answers 201 = expiry jobs = nonces)`
        : gatewayProblems.join('; '),
    );
    console.log('');
    console.log(`2. callback delivery to a local node:http receiver, ${CALLBACKS} events per row:`);
    for (const d of delivery) {
      const which = d.concurrency === WORKER_CONCURRENCY ? "one worker's concurrency" : 'for comparison';
      console.log(`concurrency ${d.concurrency} (${which}):`);
      line('  bare loop of signed POSTs, a connection each (node:http)', `${fixed(d.bare, 0)} /s`);
      line('  bare loop of signed POSTs, kept-alive connections', `${fixed(d.bareKeptAlive, 0)} /s`);
      line('  callbacks.attempt(id)', `${fixed(d.ours, 0)} /s`);
      line(
        `  ratio attempt / bare loop${d.concurrency === WORKER_CONCURRENCY ? '   [target >= 0.3]' : ''}`,
        `${fixed(d.ours / d.bare)} (${fixed(d.ours / d.bareKeptAlive)} of the kept-alive loop)`,
      );
    }
    line(
      'invariants after delivery',
      callbackProblems.length === 0
        ? 'OK (every event delivered once, one 200 attempt logged, every signature valid)'
        : callbackProblems.join('; '),
    );
    const collisions = gatewayCollisions + serviceCollisions;
    line(
      'new out_trade_no refused as taken (trade_no collisions)',
      `${collisions === 0 ? 'none' : collisions} (${gatewayCollisions} through the gateway, ${serviceCollisions} of ${CALLBACKS * delivery.length} service creates, sent again)`,
    );
    // The figures move with whatever else runs on these cores: the 1-minute load average says how busy it was.
    line(
      `load average (1 min) before / after, ${cpus().length} cores`,
      `${fixed(loadBefore)} / ${fixed(loadavg()[0])}`,
    );
    if (gatewayProblems.length > 0 || callbackProblems.length > 0 || collisions > 0) process.exitCode = 1;
  } finally {
    await app?.close();
    await receiverThread.worker.terminate();
    logs.end();
    await bench.drop();
  }
}
