import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createJobRunner } from './db/jobs.ts';
import { createStorage } from './lib/storage/index.ts';
import { createExportsService, EXPORT_QUEUE, exportKindHandlers } from './modules/exports/index.ts';
import { createDailyReportsService } from './modules/reports/index.ts';

// `npm run worker:exports`: a process that only makes export files (the export.run queue), beside the
// servers and workers started with JOB_QUEUES naming every other queue. It loads the exports module alone,
// and its npm script caps V8's heap (--max-old-space-size, --max-semi-space-size) so that its memory stays
// small and flat whatever the row count: an export streams keyset batches, so it never needs more.
// SIGTERM lets a running export finish.

if (Number(process.versions.node.split('.')[0]) !== 24) {
  console.error(
    `Paydesk needs Node 24, this is ${process.versions.node}. Start it with npm run worker:exports.`,
  );
  process.exit(1);
}

const config = loadConfig(process.env);
if (!config.databaseUrl) {
  console.error('npm run worker:exports needs DATABASE_URL (PostgreSQL), as npm run worker does.');
  process.exit(1);
}
const database = await openDatabase({
  url: config.databaseUrl,
  poolSize: 4,
  acquireTimeoutMs: config.db.acquireTimeoutMs,
  // An export reads large batches: the read of one batch still has the configured limit.
  statementTimeoutMs: config.db.statementTimeoutMs,
});
await database.migrate();
const now = () => new Date();
const jobs = createJobRunner(database.jobConnection);
const storage = createStorage({
  dataDir: config.dataDir,
  ...(config.storage.url ? { storageUrl: config.storage.url } : {}),
  ...(config.storage.s3Endpoint ? { s3Endpoint: config.storage.s3Endpoint } : {}),
});
const exports = createExportsService({
  db: database.db,
  jobs,
  storage,
  now,
  kinds: exportKindHandlers({ dailyReports: createDailyReportsService({ db: database.db, now }) }),
});
await jobs.start();
await jobs.work({
  [EXPORT_QUEUE]: async (data) => {
    await exports.run(Number(data.id));
  },
});
console.log(`Paydesk export worker ${process.pid} is taking jobs (database: postgres).`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  const forced = setTimeout(() => process.exit(1), 10 * 60_000);
  forced.unref();
  await jobs.stop(10 * 60_000);
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
