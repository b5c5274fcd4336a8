import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../apps/server/src/db/client.ts';
import type { JobQueue } from '../apps/server/src/db/jobs.ts';
import { createLocalStorage } from '../apps/server/src/lib/storage/local-storage.ts';
import { createExportsService } from '../apps/server/src/modules/exports/exports.service.ts';
import { exportKindHandlers } from '../apps/server/src/modules/exports/kinds/index.ts';
import { createDailyReportsService } from '../apps/server/src/modules/reports/daily-reports.service.ts';

// One export in a process of its own (as a worker runs it), so its peak memory is the export's:
// `node bench/exports-worker.ts <database url> <merchant id> <user id> <csv|xlsx>` prints one JSON line.

const [url, merchantId, userId, format] = process.argv.slice(2);
const database = await openDatabase({ url, poolSize: 2, statementTimeoutMs: 600_000 });
const root = mkdtempSync(path.join(os.tmpdir(), 'paydesk-bench-exports-'));
const storage = createLocalStorage(root);
const jobs: JobQueue = { send: async () => undefined };
const now = () => new Date();
const kinds = exportKindHandlers({ dailyReports: createDailyReportsService({ db: database.db, now }) });
const exports = createExportsService({ db: database.db, jobs, storage, now, kinds });

const startRss = process.memoryUsage().rss;
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

const task = await exports.create(
  {
    userId: Number(userId),
    merchantId: Number(merchantId),
    perms: ['funds:view', 'export:create', 'export:view'],
    timeZone: 'Asia/Shanghai',
    locale: 'zh-cn',
  },
  { kind: 'fund_flows', format: format as 'csv' | 'xlsx', filters: {}, locale: 'zh-cn' },
);
const started = performance.now();
await exports.run(task.id);
const elapsedMs = performance.now() - started;
clearInterval(sampler);
const done = await exports.detail(Number(merchantId), task.id);
await database.close();
rmSync(root, { recursive: true, force: true });
console.log(
  JSON.stringify({
    status: done.status,
    error: done.error,
    rows: done.row_count,
    size: done.size,
    ms: elapsedMs,
    startRssMb: startRss / 1024 / 1024,
    peakRssMb: Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1024 / 1024,
  }),
);
