import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let email: string;

beforeAll(async () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'paydesk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  ctx = await createTestApp({ WEB_DIST: dist, TRUST_PROXY: 'true' });
  email = (await createMerchant(ctx.database.db)).users.ROOT.email;
});
afterAll(() => ctx.close());

describe('serving the built console', () => {
  it('caches hashed assets for a year', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers console paths with index.html, never cached', async () => {
    for (const url of ['/', '/dashboard', '/fund/fundWater?type=recharge']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('keeps JSON 404s for unknown API paths and missing assets', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: 'Not found.' });
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });
});

describe('cookies under HTTPS', () => {
  it('marks the session and XSRF cookies Secure when the request came over HTTPS', async () => {
    const client = new TestClient(ctx.app);
    await client.request('GET', '/api/csrf-cookie', { headers: { 'x-forwarded-proto': 'https' } });
    const response = await client.request('POST', '/api/login', {
      body: { email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.statusCode).toBe(200);
    const session = response.cookies.find((c) => c.name === 'paydesk_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });

  it('does not mark them Secure over plain HTTP', async () => {
    const client = new TestClient(ctx.app);
    const response = await client.login(email, TEST_PASSWORD);
    expect(response.cookies.find((c) => c.name === 'paydesk_session')?.secure).toBeFalsy();
  });
});
