import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';

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

/**
 * Logs in through the console's login page, in whatever language it shows, then puts the console in the
 * mode the spec walks: test by default (the demo's sandbox history is test mode's, and every demo merchant
 * has live channels, so the console opens in live mode); `mode: null` leaves the merchant's default.
 */
export async function logIn(
  page: Page,
  email: string,
  {
    language = 'en' as 'en' | 'zh-cn' | 'vi',
    mode = 'test' as 'live' | 'test' | null,
  }: { language?: 'en' | 'zh-cn' | 'vi'; mode?: 'live' | 'test' | null } = {},
) {
  await page.addInitScript((lng) => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', lng);
  }, language);
  await page.goto('/login');
  await page.locator('input#username').fill(email);
  await page.locator('input#password').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  if (mode) await switchMode(page, mode);
}

/**
 * Puts the console in live or test mode through the header's switch, as a user does (DESIGN 12): a spec
 * says which mode it walks rather than counting on the merchant's default (logIn's `mode`). The choice is
 * kept for the user in this browser, across reloads and pages.
 */
export async function switchMode(page: Page, mode: 'live' | 'test') {
  const toggle = page.getByTestId('mode-switch');
  await expect(toggle).toBeVisible();
  if ((await toggle.isChecked()) !== (mode === 'test')) await toggle.click();
  await expect(toggle).toBeChecked({ checked: mode === 'test' });
  await expect(page.getByTestId('test-mode-band')).toHaveCount(mode === 'test' ? 1 : 0);
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

/**
 * The test plays the user's phone: each call gives the code of the earliest time step not used yet that
 * the server accepts now (it takes one step either side of the current one), waiting for the clock only
 * when every acceptable step is spent. `fromPrevious` starts one step back, so three codes come at once.
 */
export function authenticator(secret: string, { fromPrevious = false } = {}) {
  let lastStep = 0;
  return async function nextCode(): Promise<string> {
    for (;;) {
      const now = Date.now() / 1000;
      const current = Math.floor(now / 30);
      // A step used within the last second of its window could fall out before the server checks it.
      const earliest = fromPrevious && now - current * 30 < 29 ? current - 1 : current;
      const step = Math.max(earliest, lastStep + 1);
      if (step <= current + 1) {
        lastStep = step;
        return generate({ secret, epoch: step * 30 });
      }
      await new Promise((resolve) => setTimeout(resolve, ((current + 1) * 30 - now) * 1000 + 250));
    }
  };
}

/** A new user of a demo merchant, made as an operator makes one (ops user:create); its email. */
export async function createUser(merchant: string, role: 'ROOT' | 'FINANCE' | 'VIEWER', tag: string) {
  const email = `${tag}-${Date.now()}@demo.paydesk.test`;
  await runOps(
    'user:create',
    '--merchant',
    merchant,
    '--email',
    email,
    '--name',
    `E2E ${tag}`,
    '--role',
    role,
    '--password',
    DEMO_PASSWORD,
    '--reason',
    `e2e ${tag}`,
  );
  return email;
}

/** Calls the console API as the page's signed-in user, with its CSRF token, as the console itself does. */
export async function consoleCall(page: Page, method: 'POST' | 'PUT' | 'GET', url: string, data?: unknown) {
  const xsrf = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.fetch(url, {
    method,
    headers: { accept: 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
  return response.status() === 204 ? undefined : ((await response.json()) as unknown);
}

/**
 * Turns two-factor on for the signed-in user and sets a payment password, through the same calls the
 * Security and Payment password pages make (e2e/security.spec.ts walks those pages); the phone's codes.
 */
export async function enableStepUp(page: Page, paymentPassword: string, { password = DEMO_PASSWORD } = {}) {
  await consoleCall(page, 'POST', '/api/user/confirm-password', { password });
  await consoleCall(page, 'POST', '/api/user/two-factor-authentication');
  const { secretKey } = (await consoleCall(page, 'GET', '/api/user/two-factor-secret-key')) as {
    secretKey: string;
  };
  const nextCode = authenticator(secretKey, { fromPrevious: true });
  await consoleCall(page, 'POST', '/api/user/confirmed-two-factor-authentication', {
    code: await nextCode(),
  });
  await consoleCall(page, 'PUT', '/api/merchant/payment-password', {
    password,
    payment_password: paymentPassword,
    payment_password_confirmation: paymentPassword,
    code: await nextCode(),
  });
  return nextCode;
}

/**
 * The first link matching `link` in the newest mail to `to`, read from the .eml files the suite's server
 * writes to DATA_DIR/mail (no SMTP_URL); waits for the mail job to write it.
 */
export async function mailedLink(to: string, link: RegExp): Promise<URL> {
  const dir = path.join(process.env.PAYDESK_E2E_DATA_DIR!, 'mail');
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .reverse()) {
      // Quoted-printable: soft line breaks joined, "=3D" back to "=".
      const text = (await readFile(path.join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (!text.toLowerCase().includes(to.toLowerCase())) continue;
      const found = link.exec(text);
      if (found) return new URL(found[0]);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no mail to ${to} with a link like ${link} in ${dir}`);
}

/**
 * Chooses a bank in the payout form's list. The list opens on a click; a re-render of the form just then
 * (the account type changed the field set) can close it under the pointer and detach the option, once seen
 * in a CI run: open it again and choose again until the field shows the bank.
 */
export async function chooseBank(page: Page, label: string, bank: string) {
  const field = page.getByRole('combobox', { name: label });
  await expect(async () => {
    await field.click();
    await page.locator(`.ant-select-item-option[title="${bank}"]`).click({ timeout: 5_000 });
    await expect(page.locator('.ant-form-item').filter({ has: field })).toContainText(bank, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
}

/**
 * Sends a payout from its confirm dialog (titled `title`, its OK button `ok`) and answers its trade number
 * once the page moved to Send money history. A confirming click made while the dialog was still opening
 * (90 ms after it began) was seen to send nothing, the dialog staying: it is clicked again while the
 * dialog is there and nothing was sent (a click while it sends meets the button's loading state, which
 * takes no click; once sent, the page has moved on).
 */
export async function confirmPayout(page: Page, title: string, ok: string): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(async () => {
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: ok }).click();
    await expect(page).toHaveURL(/\/behalfPay\/transfers\?trade_no=P\d+/, { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  return new URL(page.url()).searchParams.get('trade_no')!;
}
