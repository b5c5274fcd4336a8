import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_APP_KEY } from './test-app.ts';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
};

/**
 * A process of ours (`args` after node) started with the test's settings, resolved once its output says it
 * is ready (`readyPort` answers the port it listens on, or 0 for a worker; null while not ready).
 */
function startProcess(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyPort: (output: string) => number | null,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: 'production', APP_KEY: TEST_APP_KEY, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = readyPort(output);
      if (port !== null) resolve({ child, port, exited, output: () => output });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${label} exited early (${code}): ${output}`)));
  });
}

const takingJobs = (output: string) => (output.includes('is taking jobs') ? 0 : null);

/**
 * The real main.ts as its own process (production mode, a port of its own), on the test's database: the
 * PostgreSQL one at `databaseUrl`, else a fresh embedded one in its DATA_DIR. Resolves once it listens.
 * `args` go after main.ts (`--demo`); an env value of undefined leaves that variable out (NODE_ENV too).
 */
export function startServerProcess(
  options: { databaseUrl?: string; dataDir?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<ServerProcess> {
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'paydesk-process-')),
    DATABASE_URL: options.databaseUrl ?? '',
    WEB_DIST: path.join(os.tmpdir(), 'paydesk-no-console'),
    ...options.env,
  };
  return startProcess('server', [main, ...(options.args ?? [])], env, (output) => {
    const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
    return match ? Number(match[1]) : null;
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
export const startExportWorker = (env: NodeJS.ProcessEnv): Promise<ServerProcess> =>
  startProcess('export worker', exportWorkerCommand(), env, takingJobs);

/** A jobs worker (src/worker.ts, `npm run worker`); resolves once it takes jobs. */
export const startJobsWorker = (env: NodeJS.ProcessEnv): Promise<ServerProcess> =>
  startProcess('worker', [path.join(serverDir, 'src/worker.ts')], env, takingJobs);
