import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createWriteStream } from 'node:fs';
import { signRequest } from './src/lib/gateway-signature.ts';

type Cred = { no: string; accessKey: string; secret: string };
async function clients(url: string, method: string, seconds: number, creds: Cred[] | undefined) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const t = new URL(url); let n = 0; const statuses: Record<number, number> = {};
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 16 }, async (_, c) => {
    for (let i = 0; performance.now() < until; i++) {
      const body = method === 'GET' ? '' : JSON.stringify({ out_trade_no: `o${c}-${i}-${randomBytes(4).toString('hex')}`, amount: '100.00' });
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      if (creds) {
        const m = creds[c % creds.length]; const timestamp = Math.floor(Date.now() / 1000); const nonce = randomBytes(16).toString('base64url');
        Object.assign(headers, { 'x-merchant-no': m.no, 'x-access-key': m.accessKey, 'x-timestamp': String(timestamp), 'x-nonce': nonce,
          'x-signature': signRequest(m.secret, { method, pathWithQuery: t.pathname, timestamp, nonce, body }) });
      }
      const status = await new Promise<number>((resolve, reject) => {
        const r = httpRequest({ host: t.hostname, port: t.port, path: t.pathname, method, agent, headers }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
        r.on('error', reject); r.end(body);
      });
      statuses[status] = (statuses[status] ?? 0) + 1; n++;
    }
  }));
  agent.destroy();
  return { n, statuses };
}
if (!isMainThread) {
  parentPort!.postMessage(await clients(workerData.url, workerData.method, workerData.seconds, workerData.creds));
} else {
  const { buildApp } = await import('./src/app.ts');
  const { loadConfig } = await import('./src/config.ts');
  const { createBenchDatabase } = await import('../../bench/lib.ts');
  const { createGatewayMerchant } = await import('./test/factories/gateway.ts');
  const bench = await createBenchDatabase('layers', 20);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: process.env.LOGS ?? 'info', APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`, DATA_DIR: '/tmp/paydesk-bench', JOBS: 'off' });
  const creds: Cred[] = []; const merchants: any[] = [];
  for (let i = 0; i < 16; i++) { const m = await createGatewayMerchant(bench.database.db, config.appKey, {}); merchants.push(m); creds.push({ no: m.merchant.no, accessKey: m.accessKey, secret: m.secret }); }
  const paths = (process.env.PATHS ?? '/bench/noop,/bench/db,/bench/db2,/gateway/v1/collections,/gateway/v1/collections').split(',');
  for (const entry of paths) {
    const [method, p] = entry.includes(' ') ? entry.split(' ') : ['POST', entry];
    const app = await buildApp({ config, database: bench.database, logger: { level: config.logLevel, stream: createWriteStream('/dev/null') } });
    app.post('/bench/noop', async () => ({ ok: true }));
    app.post('/bench/db', async () => { await bench.database.ping(); return { ok: true }; });
    app.post('/bench/db2', async () => { await bench.database.ping(); await bench.database.ping(); return { ok: true }; });
    const { z } = await import('zod');
    const shared = await import('@paydesk/shared/collections/collections.schemas.ts');
    const view = { trade_no: 'C2026112506000012345678', out_trade_no: 'abc', status: 'to_be_paid', amount: '100.00', fee: '1.50', currency: 'CNY', channel: 'sandbox', pay_url: 'http://x/sandbox/pay/C1', expires_at: new Date().toISOString(), created_at: new Date().toISOString(), paid_at: null, settlement_status: 'unsettled' };
    app.withTypeProvider<never>().post('/bench/zod', { schema: { body: (shared as any).CreateCollectionBodySchema, response: { 201: z.object({ data: (shared as any).GatewayCollectionSchema }) } } }, async (_r, reply) => reply.status(201).send({ data: view }));
    app.post('/bench/zodbody', { schema: { body: (shared as any).CreateCollectionBodySchema } }, async (_r, reply) => reply.status(201).send({ data: view }));
    const { createGatewayGuard } = await import('./src/modules/gateway/gateway-auth.ts');
    const guard = createGatewayGuard({ db: bench.database.db, appKey: config.appKey, now: () => new Date() });
    app.get('/bench/guard', { preHandler: guard }, async () => ({ ok: true }));
    const made0 = merchants[0];
    app.post('/bench/create', async (request, reply) => {
      const row = await app.services.collections.create({ id: made0.merchant.id, no: made0.merchant.no, name: made0.merchant.name, currency: 'CNY' }, request.body as never);
      return reply.status(201).send({ data: app.services.collections.gatewayView(row) });
    });
    const { sql } = await import('drizzle-orm');
    app.post('/bench/heavy', async () => { await bench.database.db.execute(sql`select sum(x) from generate_series(1, 5000) x`); return { ok: true }; });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const seconds = Number(process.env.SECS ?? 3);
    const { readFileSync } = await import('node:fs');
    const cpu = () => { const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
    const sys = () => { const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number); return { busy: f[0] + f[1] + f[2] + f[5] + f[6], all: f.slice(0, 8).reduce((a, b) => a + b, 0) }; };
    const cpu0 = cpu(); const sys0 = sys();
    const elu0 = performance.eventLoopUtilization();
    const result = await new Promise<{ n: number; statuses: unknown }>((resolve) => {
      const w = new Worker(new URL(import.meta.url), { workerData: { url: base + p, method, seconds, creds: p.startsWith('/gateway') ? creds : undefined } });
      w.once('message', (m) => { void w.terminate(); resolve(m); });
    });
    const elu = performance.eventLoopUtilization(elu0);
    const mainMs = cpu() - cpu0; const sys1 = sys();
    const machine = `machine ${(100 * (sys1.busy - sys0.busy) / (sys1.all - sys0.all)).toFixed(0)}% busy, main thread CPU ${((mainMs / result.n) * 1000).toFixed(0)} µs/req`;
    console.log(entry.padEnd(28), `${(result.n / seconds).toFixed(0)} /s`, `loop busy ${(elu.utilization * 100).toFixed(0)}%`, `${((elu.active / result.n) * 1000).toFixed(0)} µs busy per request`, machine, JSON.stringify(result.statuses));
    await app.close();
  }
  await bench.drop(); process.exit(0);
}
