import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import {
  DEMO_LIVE_GUIDE,
  DEMO_OTHER_MERCHANTS,
  DEMO_PASSWORD,
  DEMO_USERS,
  seedDemo,
} from './modules/demo/index.ts';
import { claimDataDir, publishServerUrl, releaseDataDir } from './cli/server-file.ts';
import { ensureLocalOperatorToken } from './modules/ops/index.ts';
import { createStorage } from './lib/storage/index.ts';

if (Number(process.versions.node.split('.')[0]) !== 24) {
  console.error(`Paydesk needs Node 24, this is ${process.versions.node}. Start it with npm start.`);
  process.exit(1);
}

// The demo (npm start sets PAYDESK_DEMO=true; the browser suite passes --demo): the demo merchants, the
// sandbox channel, and callbacks to this machine (config.ts). Without either, production has none of them.
const config = loadConfig(
  process.argv.includes('--demo') ? { ...process.env, PAYDESK_DEMO: 'true' } : process.env,
);
// DATA_DIR/server.json: the ops command line finds this server there (and never opens its PGlite beside it).
try {
  claimDataDir(config.dataDir, { role: 'server', database: config.databaseUrl ? 'postgres' : 'pglite' });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
process.on('exit', () => releaseDataDir(config.dataDir));
const database = await openDatabase({
  url: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pglite'),
  poolSize: config.db.poolSize,
  acquireTimeoutMs: config.db.acquireTimeoutMs,
  statementTimeoutMs: config.db.statementTimeoutMs,
});
await database.migrate();
await ensureLocalOperatorToken(database.db, config.dataDir);

// Development seeds an empty database; production only the demo (npm start).
const wantsDemo = config.isDemo || !config.isProduction;
// One file storage for the demo's screenshots and the app (DATA_DIR/files, or STORAGE_URL).
const storage = createStorage({
  dataDir: config.dataDir,
  ...(config.storage.url ? { storageUrl: config.storage.url } : {}),
  ...(config.storage.s3Endpoint ? { s3Endpoint: config.storage.s3Endpoint } : {}),
});
const seeded = wantsDemo
  ? await seedDemo(database.db, {
      appKey: config.appKey,
      files: { storage, topUp: config.topUp },
      guide: { dataDir: config.dataDir, port: config.port },
    })
  : false;

const app = await buildApp({ config, database, storage });
await app.listen({ port: config.port, host: config.host });
const { port } = app.server.address() as { port: number };
const isWildcard = ['0.0.0.0', '::'].includes(config.host);
const url = `http://${isWildcard ? 'localhost' : config.host}:${port}`;
const opsHost = isWildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
publishServerUrl(config.dataDir, `http://${opsHost}:${port}`);

// One write, so that whoever watches for the address reads the logins with it.
const banner = [`\nPaydesk is running at ${url} (database: ${database.kind})`];
const mailTo = app.services.mail.delivery;
banner.push(
  mailTo.kind === 'smtp'
    ? `Mail goes to the SMTP server ${mailTo.host} (SMTP_URL).`
    : `Mail is written to ${mailTo.dir} as .eml files (set SMTP_URL to send it).`,
);
if (wantsDemo) {
  banner.push(seeded ? 'Demo merchant created. Logins:' : 'Demo logins:');
  for (const user of DEMO_USERS) banner.push(`  ${user.role.padEnd(9)} ${user.email}  /  ${DEMO_PASSWORD}`);
  for (const other of DEMO_OTHER_MERCHANTS)
    banner.push(`  ROOT      ${other.email}  /  ${DEMO_PASSWORD}  (${other.no}, ${other.currency})`);
  const guide = path.join(config.dataDir, DEMO_LIVE_GUIDE);
  if (existsSync(guide))
    banner.push(`Live channels (bank transfer, manual payouts, statements, Razorpay): ${guide}`);
}
console.log(banner.join('\n') + '\n');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping: refusing new requests, finishing in-flight ones');
  const forced = setTimeout(() => {
    app.log.error('in-flight requests did not finish in 30 s; exiting');
    process.exit(1);
  }, 30_000);
  forced.unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
