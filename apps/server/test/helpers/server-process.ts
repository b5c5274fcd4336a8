import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_APP_KEY } from './test-app.ts';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

export type ServerProcess = { child: ChildProcess; port: number; exited: Promise<number | null> };

/**
 * The real main.ts as its own process (production mode, a port of its own), on the test's database: the
 * PostgreSQL one at `databaseUrl`, else a fresh embedded one in its DATA_DIR. Resolves once it listens.
 */
export function startServerProcess(
  options: { databaseUrl?: string; dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'paydesk-process-')),
      DATABASE_URL: options.databaseUrl ?? '',
      APP_KEY: TEST_APP_KEY,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(os.tmpdir(), 'paydesk-no-console'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]), exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited early (${code}): ${output}`)));
  });
}

const serverDir = path.resolve(import.meta.dirname, '../..');

/**
 * `npm run worker:exports` as the package script runs it (its Node flags, the heap caps, included):
 * `[execPath, args]` for spawn. The bench measures the same command.
 */
export function exportWorkerCommand(): string[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const [node, ...args] = scripts['worker:exports']!.split(/\s+/);
  if (node !== 'node') throw new Error('The worker:exports script should start with node.');
  return args.map((arg) => (arg.endsWith('.ts') ? path.join(serverDir, arg) : arg));
}

/** `npm run worker:exports` on a PostgreSQL database; resolves once it takes jobs. */
export function startExportWorker(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, exportWorkerCommand(), {
    env: { ...process.env, NODE_ENV: 'production', APP_KEY: TEST_APP_KEY, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is taking jobs')) resolve({ child, port: 0, exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`export worker exited early (${code}): ${output}`)));
  });
}
