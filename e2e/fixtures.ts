import { spawn } from 'node:child_process';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'paydesk-demo';
export const DEMO = {
  ROOT: 'root@demo.paydesk.test',
  FINANCE: 'finance@demo.paydesk.test',
  OPERATOR: 'operator@demo.paydesk.test',
  VIEWER: 'viewer@demo.paydesk.test',
} as const;

type ConsoleGuard = {
  /** Console errors a test expects (a failed request it provoked); anything else fails the test. */
  expectConsoleError: (pattern: RegExp) => void;
};

/** Every test fails on an error in the browser console or an uncaught exception in the page. */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const expected: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} (${page.url()})`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message} (${page.url()})`));
      await use({ expectConsoleError: (pattern) => expected.push(pattern) });
      expect(errors.filter((error) => !expected.some((pattern) => pattern.test(error)))).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Logs in through the console's login page, in whatever language it shows. */
export async function logIn(page: Page, email: string, { language = 'en' as 'en' | 'zh-cn' | 'vi' } = {}) {
  await page.addInitScript((lng) => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', lng);
  }, language);
  await page.goto('/login');
  await page.locator('input#username').fill(email);
  await page.locator('input#password').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/** `npm run ops -- <args> --json` against the suite's running server (found in its DATA_DIR); the parsed answer. */
export function runOps<T>(...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'ops', '--', ...args, '--json'], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: process.env.PAYDESK_E2E_DATA_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`ops ${args[0]} exited ${code}: ${err}`)),
    );
  });
}
