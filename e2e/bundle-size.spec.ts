import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures.ts';

// The server serves WEB_DIST when set (as the console build to measure), else apps/web/dist.
const DIST = path.resolve(import.meta.dirname, '..', process.env.WEB_DIST ?? 'apps/web/dist');
const BUDGET_BYTES = 170 * 1024;

// DESIGN section 8: the JavaScript and CSS the login route loads stay under 170 KB gzip (what the browser
// fetches, the texts of the page's language included; `npm run bench -- console` breaks it down).
test('the login route loads less than 170 KB of JavaScript and CSS (gzip)', async ({ page }, testInfo) => {
  const assets = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/assets/') && /\.(js|css)$/.test(url.pathname)) assets.add(url.pathname);
  });
  await page.goto('/login');
  await expect(page.locator('input#username')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const sizes = [...assets].sort().map((asset) => ({
    asset,
    gzip: gzipSync(readFileSync(path.join(DIST, asset))).length,
  }));
  const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
  const report = [
    ...sizes.map(({ asset, gzip }) => `${(gzip / 1024).toFixed(1).padStart(7)} KB  ${asset}`),
    `${(total / 1024).toFixed(1).padStart(7)} KB  total (gzip, ${sizes.length} files)`,
  ].join('\n');
  console.log(report);
  await testInfo.attach('login-route-sizes.txt', { body: report, contentType: 'text/plain' });
  expect(sizes.some(({ asset }) => asset.includes('login-page'))).toBe(true);
  expect(total).toBeLessThan(BUDGET_BYTES);
});

// A chunk that imports a chunk importing it back runs first or second depending on the page loaded first,
// and then reads the other's exports before they exist (a direct load of /lineExport once listed nothing:
// the exports' schema was still undefined). vite.config.ts groups chunks so that none does.
test('no chunk of the console imports, directly or not, a chunk that imports it', () => {
  const assets = path.join(DIST, 'assets');
  const imports = new Map(
    readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => [
        file,
        [
          ...readFileSync(path.join(assets, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g),
        ].map((match) => match[1]!),
      ]),
  );
  expect(imports.size).toBeGreaterThan(10);
  const cycles: string[] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string) => {
    trail.push(file);
    for (const next of imports.get(file) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) cycles.push([...trail.slice(at), next].join(' -> '));
      else if (!done.has(next)) visit(next);
    }
    trail.pop();
    done.add(file);
  };
  for (const file of imports.keys()) if (!done.has(file)) visit(file);
  expect(cycles).toEqual([]);
});
