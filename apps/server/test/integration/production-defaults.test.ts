import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/modules/demo/index.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-app.ts';

// Issue 33 item 9 (DESIGN 9, turn 3): a server started without NODE_ENV is a production server. It seeds no
// demo logins (their password is published) and has no sandbox; only `--demo` (npm start) turns them on.

const processes: ServerProcess[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  for (const database of databases) await database.drop();
});

/** main.ts as `npm run serve` starts it: no NODE_ENV (vitest sets one), on an empty database. */
async function serve(args: string[] = []) {
  let databaseUrl = '';
  if (testDatabaseKind() === 'postgres') {
    const database = await createTestDatabase();
    databases.push(database);
    databaseUrl = database.url!;
  }
  const server = await startServerProcess({ databaseUrl, args, env: { NODE_ENV: undefined } });
  processes.push(server);
  return { server, base: `http://127.0.0.1:${server.port}` };
}

/** Logs in over real HTTP (CSRF cookie first); the answer and the cookies of the session. */
async function login(base: string, email: string, password: string) {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  keep(await fetch(`${base}/api/csrf-cookie`));
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      cookie: cookieHeader(),
      'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''),
    },
    body: JSON.stringify({ email, password }),
  });
  keep(response);
  return { status: response.status, cookie: cookieHeader() };
}

describe('a server process started without NODE_ENV', () => {
  it('without --demo: no demo logins, nothing printed about them, and no sandbox (404)', async () => {
    const { server, base } = await serve();
    expect(server.output()).not.toContain('Demo');
    expect(server.output()).not.toContain(DEMO_PASSWORD);
    const demoLogin = await login(base, 'root@demo.paydesk.test', DEMO_PASSWORD);
    expect(demoLogin.status).toBe(422);
    for (const method of ['GET', 'POST'] as const) {
      const answer = await fetch(`${base}/sandbox/pay/C202611261200001234567`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...(method === 'POST' ? { body: 'result=paid' } : {}),
      });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('with --demo (npm start): the demo logins, printed, and the sandbox pay page of a demo order', async () => {
    const { server, base } = await serve(['--demo']);
    expect(server.output()).toContain(`root@demo.paydesk.test  /  ${DEMO_PASSWORD}`);
    const root = await login(base, 'root@demo.paydesk.test', DEMO_PASSWORD);
    expect(root.status).toBe(200);
    // The demo's sandbox history is test mode's (DESIGN 12).
    const list = await fetch(`${base}/api/merchant/collections?per_page=1`, {
      headers: { accept: 'application/json', cookie: root.cookie, 'x-mode': 'test' },
    });
    expect(list.status).toBe(200);
    const [order] = ((await list.json()) as { data: { trade_no: string }[] }).data;
    const page = await fetch(`${base}/sandbox/pay/${order!.trade_no}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
