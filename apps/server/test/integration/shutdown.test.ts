import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.ts';

// The real main.ts as a process: SIGTERM must let a request already in flight finish.
let server: ChildProcess | undefined;
afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
});

async function startServer(): Promise<{ port: number; exited: Promise<number | null> }> {
  const started = await startServerProcess({
    databaseUrl: process.env.TEST_DATABASE === 'postgres' ? process.env.DATABASE_URL : '',
  });
  server = started.child;
  return started;
}

it('on SIGTERM, stops taking new connections, finishes the in-flight request, then exits 0', async () => {
  const { port, exited } = await startServer();
  const base = `http://127.0.0.1:${port}`;
  const csrf = await fetch(`${base}/api/csrf-cookie`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')![1];

  // A login whose body is only half sent when the signal arrives.
  const body = JSON.stringify({ email: 'nobody@test.paydesk.test', password: 'wrong-password' });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
      `Cookie: XSRF-TOKEN=${xsrf}\r\nX-XSRF-TOKEN: ${xsrf}\r\nConnection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));

  server!.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const during = await fetch(`${base}/healthz`).then(
    (response) => response.status,
    () => 'refused',
  );
  expect(during === 'refused' || during === 503).toBe(true);

  socket.write(body.slice(10));
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 422/);
  expect(answer).toContain('These credentials do not match our records.');
  expect(await exited).toBe(0);
});
