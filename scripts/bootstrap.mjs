// `npm start` and `npm test` on a fresh clone: install what is missing or stale, then hand over to
// the real script, which runs on the Node 24 that the `node` devDependency provides.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const target = { start: 'app:start', test: 'test:all', stamp: 'stamp' }[process.argv[2]];
if (!target) {
  console.error('usage: node scripts/bootstrap.mjs start|test|stamp');
  process.exit(2);
}

const manifests = [
  'package.json',
  'package-lock.json',
  'packages/shared/package.json',
  'packages/node-client/package.json',
  'apps/server/package.json',
  'apps/web/package.json',
];
const fingerprint = createHash('sha256');
for (const file of manifests) if (existsSync(file)) fingerprint.update(file).update(readFileSync(file));
const wanted = fingerprint.digest('hex');
const stampFile = 'node_modules/.paydesk-install';
// `stamp` is the root's postinstall: an `npm ci` or `npm install` run by hand leaves node_modules as the
// manifests say, so npm start and npm test after it do not install it all again.
if (target === 'stamp') {
  writeFileSync(stampFile, wanted + '\n');
  process.exit(0);
}
const installed = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';

if (installed !== wanted || !existsSync('node_modules/.bin/node')) {
  console.log('Installing dependencies (first run, or package files changed)...');
  const command = existsSync('package-lock.json') ? 'ci' : 'install';
  const result = spawnSync('npm', [command, '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`npm ${command} failed.`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, wanted + '\n');
}

// npm start is the demo: production mode (the default) with the demo merchants, the sandbox and callbacks
// to this machine. npm cannot hand main.ts a --demo through app:start and serve, so it goes as PAYDESK_DEMO.
const env = target === 'app:start' ? { ...process.env, PAYDESK_DEMO: 'true' } : process.env;
const child = spawn('npm', ['run', '-s', target, '--', ...process.argv.slice(3)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
