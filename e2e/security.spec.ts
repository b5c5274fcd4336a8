import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { authenticator, DEMO_PASSWORD, expect, logIn, test } from './fixtures.ts';

// Two-factor and password changes would break any other spec signing in as the same user at the same
// time, so each test here gets its own user of the demo merchant, created the way an operator creates one
// (npm run ops -- user:create, against the running server found in its DATA_DIR).

const repoRoot = path.resolve(import.meta.dirname, '..');
const NEW_PASSWORD = 'paydesk-demo-2';
const PAYMENT_PASSWORD = 'pay-24680';

function createUser(role: 'FINANCE' | 'VIEWER', tag: string): Promise<string> {
  const email = `security-${tag}-${Date.now()}@demo.paydesk.test`;
  const args = ['user:create', '--merchant', 'M100001', '--email', email, '--name', `Security ${tag}`];
  args.push('--role', role, '--password', DEMO_PASSWORD, '--reason', 'security e2e', '--json');
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'ops', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: process.env.PAYDESK_E2E_DATA_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(email) : reject(new Error(`ops user:create exited ${code}: ${err}`)),
    );
  });
}

async function openSecurity(page: Page) {
  await page.goto('/setting/accountSecurity');
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
}

async function logOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function submitCredentials(page: Page, email: string) {
  await page.goto('/login');
  await page.locator('input#username').fill(email);
  await page.locator('input#password').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
}

/** Fills the password dialog that a two-factor change opens when the password was not confirmed lately. */
async function confirmPassword(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: 'Confirm your password' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Login password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

test('two-factor: set up in the console, sign in with a code, set a payment password, then sign in with a recovery code that works once', async ({
  page,
  consoleGuard,
}) => {
  // Codes are spent once each, so the test may wait for the authenticator's next period.
  test.setTimeout(300_000);
  // Provoked on purpose: the reused recovery code (422), at sign-in and when turning two-factor off.
  consoleGuard.expectConsoleError(/status of 422 .*\/login/);
  consoleGuard.expectConsoleError(/status of 422 .*\/setting\/accountSecurity/);
  const email = await createUser('FINANCE', '2fa');
  await logIn(page, email);
  await openSecurity(page);
  await expect(page.getByTestId('two-factor-status')).toHaveText('Off');

  // Guided setup: password, then the QR code and the key, then a code, then the recovery codes.
  await page.getByRole('button', { name: 'Turn on' }).click();
  await confirmPassword(page);
  const setup = page.getByRole('dialog').filter({ hasText: 'Set up two-factor authentication' });
  await expect(setup.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
  const secret = (await setup.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const nextCode = authenticator(secret);
  await setup.getByRole('button', { name: 'Next' }).click();
  await setup.getByLabel('Verification code').fill(await nextCode());
  await setup.getByRole('button', { name: 'Verify and turn on' }).click();

  const list = setup.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(8);
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    setup.getByRole('button', { name: /Download \.txt/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('paydesk-recovery-codes.txt');
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const file = Buffer.concat(chunks).toString('utf8');
  for (const code of recoveryCodes) expect(file).toContain(code);
  await setup.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('On');
  await logOut(page);

  // Sign in with the authenticator.
  await submitCredentials(page, email);
  await page.getByLabel('Authentication code').fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Now money can be guarded: set the payment password with the login password and a code.
  await page.goto('/setting/paymentPassword');
  const form = page.getByRole('form', { name: 'Payment password' });
  await expect(page.getByTestId('payment-password-status')).toHaveText('Not set');
  await form.getByLabel('Login password').fill(DEMO_PASSWORD);
  await form.getByLabel('New payment password').fill(PAYMENT_PASSWORD);
  await form.getByLabel('Confirm payment password').fill(PAYMENT_PASSWORD);
  await form.getByLabel('Google code').fill(await nextCode());
  await form.getByRole('button', { name: 'Set payment password' }).click();
  await expect(page.getByTestId('payment-password-status')).toHaveText('Set');
  await logOut(page);

  // Lost phone: a recovery code gets in once.
  await submitCredentials(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await logOut(page);

  await submitCredentials(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The recovery code is invalid or has already been used.')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Recovery code').fill(recoveryCodes[1]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The security log shows what happened.
  await openSecurity(page);
  const log = page.getByRole('table', { name: 'Security log' });
  await expect(log.getByText('Signed in with a recovery code').first()).toBeVisible();
  await expect(log.getByText('Payment password set')).toBeVisible();
  // Older events are a filter away. A click on an option while the dropdown still opens can be lost on a
  // busy machine (seen once in CI: the list stayed open, unfiltered): choose again until the filter holds.
  await expect(async () => {
    if (!(await page.locator('.ant-select-dropdown:visible').count())) {
      await page.getByRole('combobox', { name: 'Event' }).click();
    }
    await page.locator('.ant-select-item-option', { hasText: 'Two-factor authentication turned on' }).click();
    await expect(log.locator('tbody tr.data-table__row')).toHaveCount(1, { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await expect(log.getByText('Two-factor authentication turned on')).toBeVisible();

  // The recovery codes are shown again only with the authenticator's current code: the password (asked
  // again in this new session) alone is not enough. The two used to sign in have been replaced.
  await page.getByRole('button', { name: 'Show recovery codes' }).click();
  await confirmPassword(page);
  const prompt = page.getByRole('dialog').filter({ hasText: 'To see your recovery codes' });
  await prompt.getByRole('button', { name: 'Show codes' }).click();
  await expect(prompt.getByText('Please enter the verification code')).toBeVisible();
  await prompt.getByLabel('Verification code').fill(await nextCode());
  await prompt.getByRole('button', { name: 'Show codes' }).click();
  await expect(prompt).toBeHidden();
  const shown = page.getByRole('dialog').filter({ hasText: 'a used code is replaced by a new one' });
  const shownList = shown.getByRole('list', { name: 'Recovery codes' });
  await expect(shownList.getByRole('listitem')).toHaveCount(8);
  const current = (await shownList.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
  expect(current).not.toContain(recoveryCodes[0]);
  expect(current).not.toContain(recoveryCodes[1]);
  expect(current.filter((code) => recoveryCodes.includes(code))).toHaveLength(6);
  await shown.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(shown).toBeHidden();

  // Turning it off warns and asks for a code as well. A spent recovery code is refused under its field.
  await page.getByRole('button', { name: 'Turn off' }).click();
  const warning = page.getByRole('dialog').filter({ hasText: 'Turn off two-factor authentication?' });
  await expect(warning).toContainText('not the responsibility of this product');
  await warning.getByRole('button', { name: 'Turn off' }).click();
  await expect(warning.getByText('Please enter the verification code')).toBeVisible();
  await warning.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await warning.getByLabel('Recovery code').fill(recoveryCodes[0]);
  await warning.getByRole('button', { name: 'Turn off' }).click();
  await expect(warning.getByText('The recovery code is invalid or has already been used.')).toBeVisible();
  await warning.getByRole('button', { name: 'Use the authenticator code instead' }).click();
  await warning.getByLabel('Verification code').fill(await nextCode());
  await warning.getByRole('button', { name: 'Turn off' }).click();
  await expect(
    page.getByText('Two-factor authentication is off. Other devices have been signed out.'),
  ).toBeVisible();
  await expect(page.getByTestId('two-factor-status')).toHaveText('Off');
  await page.goto('/setting/paymentPassword');
  await expect(page.getByText('This feature is not enabled yet')).toBeVisible();
});

async function newSignedInPage(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, email);
  return { context, page };
}

test('changing the password (in Chinese) signs out the other browser', async ({ page, browser }) => {
  const email = await createUser('VIEWER', 'password');
  await logIn(page, email, { language: 'zh-cn' });
  const other = await newSignedInPage(browser, email);
  await other.page.goto('/setting/personalData');
  await expect(other.page.getByRole('heading', { name: 'Profile' }).first()).toBeVisible();

  await page.goto('/setting/accountSecurity');
  const form = page.getByRole('form', { name: '修改密码' });
  await form.getByLabel('当前密码').fill(DEMO_PASSWORD);
  await form.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('确认新密码').fill('something-else');
  await form.getByRole('button', { name: '修改密码' }).click();
  await expect(form.getByText('确认密码与密码不一致')).toBeVisible();
  await form.getByLabel('确认新密码').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('密码已修改，其他设备已退出登录。')).toBeVisible();

  // The other browser's session is gone: it has to log in again, and only the new password works.
  await other.page.reload();
  await expect(other.page).toHaveURL(/\/login/);
  await other.context.close();
  const devices = page.getByRole('table', { name: '已登录的设备' });
  await page.reload();
  await expect(devices.getByText('本设备')).toBeVisible();
  await expect(devices.locator('tbody tr.data-table__row')).toHaveCount(1);
});
