import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLACEHOLDERS, SIGNING_EXAMPLES } from '../../src/modules/gateway/gateway-docs.ts';
import { createGatewayMerchant } from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The reference's code samples (modules/gateway/docs/samples/), run as a developer would run them against
// a started Paydesk server: each creates its collection and prints the 201 answer.

// Child processes must reach 127.0.0.1 directly, whatever proxy this machine is configured with.
const CHILD_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name)),
);

let ctx: TestContext;
let baseUrl: string;
let workDir: string;
beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  workDir = mkdtempSync(path.join(tmpdir(), 'gateway-samples-'));
});
afterAll(async () => {
  await ctx?.close();
  rmSync(workDir, { recursive: true, force: true });
});

function run(command: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [file], { cwd: workDir, env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the gateway reference samples, against a started server', () => {
  it.each([
    { language: 'node', command: process.execPath, file: 'create-collection.mjs' },
    { language: 'python', command: 'python3', file: 'create_collection.py' },
    { language: 'curl', command: 'bash', file: 'create-collection.sh' },
  ] as const)('the $language sample creates its collection', async ({ language, command, file }) => {
    // A merchant of its own: each sample creates the same out_trade_no.
    const merchant = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
    const values: Record<keyof typeof EXAMPLE_PLACEHOLDERS, string> = {
      BASE_URL: baseUrl,
      MERCHANT_NO: merchant.merchant.no,
      ACCESS_KEY: merchant.accessKey,
      SECRET_KEY: merchant.secret,
      WEBHOOK_SECRET: EXAMPLE_PLACEHOLDERS.WEBHOOK_SECRET,
    };
    let text = SIGNING_EXAMPLES[language];
    for (const [name, value] of Object.entries(values)) {
      text = text.split(EXAMPLE_PLACEHOLDERS[name as keyof typeof EXAMPLE_PLACEHOLDERS]).join(value);
    }
    writeFileSync(path.join(workDir, file), text);

    const { code, output } = await run(command, file);
    expect(code, output).toBe(0);
    expect(output).toContain('201');
    // Pretty-printed (Node, Python) or as sent (curl).
    expect(output).toMatch(/"out_trade_no": ?"ORDER-1001"/);
    expect(output).toMatch(/"trade_no": ?"C\d+"/);
  });

  it('are read from their files by the running server (the reference in its OpenAPI document)', async () => {
    const file = (name: string) =>
      readFileSync(new URL(`../../src/modules/gateway/docs/samples/${name}`, import.meta.url), 'utf8');
    const openapi = (await ctx.app.inject({ method: 'GET', url: '/gateway/openapi.json' })).json();
    const description: string = openapi.info.description;
    for (const name of ['create-collection.sh', 'create-collection.mjs', 'create_collection.py']) {
      expect(description).toContain(file(name).trimEnd());
    }
  });
});
