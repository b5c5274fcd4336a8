import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { testDatabaseKind } from '../helpers/test-app.ts';

// DESIGN 9: a request that cannot reach the database answers 503 quickly, and the server recovers by itself
// when the database comes back. The test starts its own PostgreSQL (initdb in a temporary folder, its own
// port; never the machine's shared one), puts the real server process on it, and stops and restarts that
// PostgreSQL while requests keep coming.

const binDir = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  const dir = version ? path.join(root, version, 'bin') : undefined;
  return dir && existsSync(path.join(dir, 'initdb')) ? dir : undefined;
})();

// initdb refuses to run as root: as root, the instance belongs to the postgres user.
const asOwner = (command: string, args: string[]) => {
  const [file, argv] =
    process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 }).toString();
};

const idOf = (user: string, kind: 'u' | 'g') =>
  Number(
    execFileSync('id', [`-${kind}`, user])
      .toString()
      .trim(),
  );

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let folder: string | undefined;
let server: ServerProcess | undefined;
afterAll(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  if (folder && binDir) {
    try {
      asOwner(path.join(binDir, 'pg_ctl'), ['-D', path.join(folder, 'data'), '-m', 'immediate', 'stop']);
    } catch {
      /* already stopped */
    }
  }
});

type Outcome = { status: number | 'error'; ms: number };

describe.runIf(testDatabaseKind() === 'postgres' && binDir !== undefined)('PostgreSQL goes away', () => {
  it('answers 503 quickly while it is down, and serves again once it is back, without a restart', async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-pg-'));
    if (process.getuid?.() === 0) chownSync(folder, idOf('postgres', 'u'), idOf('postgres', 'g'));
    const data = path.join(folder, 'data');
    const port = await freePort();
    const pgCtl = (action: string[]) => asOwner(path.join(binDir!, 'pg_ctl'), ['-D', data, ...action]);
    asOwner(path.join(binDir!, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    const startPostgres = () =>
      pgCtl([
        '-o',
        `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`,
        '-l',
        path.join(folder!, 'postgres.log'),
        '-w',
        'start',
      ]);
    startPostgres();
    asOwner(path.join(binDir!, 'createdb'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      'paydesk',
    ]);

    server = await startServerProcess({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/paydesk`,
      env: { DB_ACQUIRE_TIMEOUT_MS: '1500' },
    });
    const base = `http://127.0.0.1:${server.port}`;
    const csrf = await fetch(`${base}/api/csrf-cookie`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')![1];
    /** A login with a wrong password: it reads the throttle and the user, so it needs the database. */
    const login = async (): Promise<Outcome> => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/api/login`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            cookie: `XSRF-TOKEN=${xsrf}`,
            'x-xsrf-token': decodeURIComponent(xsrf),
          },
          body: JSON.stringify({
            email: `nobody-${Math.random()}@test.paydesk.test`,
            password: 'wrong-password',
          }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.text();
        return { status: response.status, ms: performance.now() - started };
      } catch {
        return { status: 'error', ms: performance.now() - started };
      }
    };
    const health = async () => (await fetch(`${base}/healthz`)).status;

    // Up: the login is refused as wrong (422), the health check says ok.
    expect((await login()).status).toBe(422);
    expect(await health()).toBe(200);

    // Down: every answer is a 503 that came quickly, under load (8 at a time).
    pgCtl(['-m', 'fast', 'stop']);
    const down: Outcome[] = [];
    for (let round = 0; round < 4; round++)
      down.push(...(await Promise.all(Array.from({ length: 8 }, login))));
    expect(down.map((o) => o.status)).toEqual(down.map(() => 503));
    expect(Math.max(...down.map((o) => o.ms))).toBeLessThan(5_000);
    expect(await health()).toBe(503);

    // Back: the same process serves again (its pool reconnects).
    startPostgres();
    const until = Date.now() + 30_000;
    let back: Outcome = { status: 'error', ms: 0 };
    while (Date.now() < until) {
      back = await login();
      if (back.status === 422) break;
      expect(back.status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(back.status).toBe(422);
    expect(await health()).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
