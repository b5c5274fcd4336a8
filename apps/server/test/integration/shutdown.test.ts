import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TEST_APP_KEY } from '../helpers/test-app.ts';

// The real main.ts as a process: SIGTERM must let a request already in flight finish.
const main = path.resolve(import.meta.dirname, '../../src/main.ts');
let server: ChildProcess | undefined;
afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
});

function startServer(): Promise<{ port: number; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'paydesk-shutdown-')),
      DATABASE_URL: process.env.TEST_DATABASE === 'postgres' ? process.env.DATABASE_URL : '',
      APP_KEY: TEST_APP_KEY,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(os.tmpdir(), 'paydesk-no-console'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) resolve({ port: Number(match[1]), exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited early (${code}): ${output}`)));
  });
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
