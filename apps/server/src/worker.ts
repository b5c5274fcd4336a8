import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';

// `npm run worker`: a process that only runs background jobs (callbacks, expiry, settlement, the sandbox),
// beside any number of API servers started with JOBS=off, all on one PostgreSQL database (DESIGN 2).
// SIGTERM lets running jobs finish, then exits.

if (Number(process.versions.node.split('.')[0]) !== 24) {
  console.error(`Paydesk needs Node 24, this is ${process.versions.node}. Start it with npm run worker.`);
  process.exit(1);
}

const config = loadConfig({ ...process.env, JOBS: 'inline' });
if (!config.databaseUrl) {
  console.error(
    'npm run worker needs DATABASE_URL (PostgreSQL): the embedded database belongs to one process, and the server runs its jobs itself.',
  );
  process.exit(1);
}
const database = await openDatabase({
  url: config.databaseUrl,
  poolSize: Math.min(config.db.poolSize, 10),
  acquireTimeoutMs: config.db.acquireTimeoutMs,
  statementTimeoutMs: config.db.statementTimeoutMs,
});
await database.migrate();
// The app's services and job handlers, without listening: the worker serves no HTTP.
const app = await buildApp({ config, database });
await app.ready();
console.log(`Paydesk worker ${process.pid} is taking jobs (database: postgres).`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'worker stopping: finishing running jobs');
  const forced = setTimeout(() => process.exit(1), 60_000);
  forced.unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
