import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/client.ts';
import { buildApp } from '../../src/app.ts';
import { createTestApp, type TestContext, testConfig } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

let ctx: TestContext;
let email: string;

beforeAll(async () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'paydesk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  ctx = await createTestApp({ WEB_DIST: dist, TRUST_PROXY: '1' });
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

describe('the per-IP ceiling of API requests', () => {
  it("refuses API requests past the ceiling with 429, but never the console's page or its assets", async () => {
    // A second app on the same database with a ceiling of 3 API requests a minute.
    const limited = await buildApp({
      config: testConfig({ WEB_DIST: ctx.config.webDist, API_RATE_PER_MINUTE: '3' }),
      database: ctx.database,
      logger: false,
    });
    try {
      // A page load is a score of requests: none of them counts.
      for (let i = 0; i < 10; i++) {
        const page = await limited.inject({
          method: 'GET',
          url: '/dashboard',
          headers: { accept: 'text/html' },
        });
        const asset = await limited.inject({ method: 'GET', url: '/assets/index-abc123.js' });
        expect([page.statusCode, asset.statusCode]).toEqual([200, 200]);
      }
      const api = [];
      for (let i = 0; i < 4; i++) api.push(await limited.inject({ method: 'GET', url: '/healthz' }));
      expect(api.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      expect(api[3].json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    } finally {
      await limited.close();
    }
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

describe('the gateway reference', () => {
  it('serves the OpenAPI 3.1 document of the gateway routes only', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/gateway/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/gateway/v1/collections', '/gateway/v1/payouts']),
    );
    expect(Object.keys(document.paths).every((p) => p.startsWith('/gateway/v1/'))).toBe(true);
  });

  it('serves the reference page and its script from this server, no network needed', async () => {
    const bare = await ctx.app.inject({ method: 'GET', url: '/gateway/docs' });
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/gateway/docs/']);
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/gateway/docs/',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode, page.headers.location as string).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/gateway/openapi.json');
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^https?:/);
      const url = src.startsWith('/') ? src : `/gateway/docs/${src.replace(/^\.\//, '')}`;
      const script = await ctx.app.inject({ method: 'GET', url });
      expect(script.statusCode, url).toBe(200);
      expect(script.body.length).toBeGreaterThan(1000);
    }
  });
});

describe('security headers', () => {
  it('puts helmet headers and the console CSP on pages, API answers and errors alike', async () => {
    const answers = await Promise.all(
      ['/', '/api/merchant/user', '/api/nope'].map((url) =>
        ctx.app.inject({
          method: 'GET',
          url,
          headers: { accept: url === '/' ? 'text/html' : 'application/json' },
        }),
      ),
    );
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['content-security-policy']).toContain("script-src 'self';");
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['strict-transport-security']).toBeUndefined(); // not production
    }
  });

  it('gives the gateway reference page its own, looser script policy', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/gateway/docs/' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});
