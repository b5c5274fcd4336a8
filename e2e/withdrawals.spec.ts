import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_PASSWORD, expect, logIn, runOps, test } from './fixtures.ts';

// Withdraw end to end: a finance user of the INR demo merchant (its own, so no other spec sees its balance
// move) withdraws USDT from the console behind the payment password and a Google code; an operator rejects
// it with the command line; the history shows why, and Funds > Transactions shows the money come back.

const PAYMENT_PASSWORD = 'pay-13579';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

/** The user's phone: the earliest code not used yet that the server accepts now (one period ahead at most). */
function authenticator(secret: string) {
  let lastStep = 0;
  return async function nextCode(): Promise<string> {
    for (;;) {
      const now = Date.now() / 1000;
      const current = Math.floor(now / 30);
      const step = Math.max(current, lastStep + 1);
      if (step <= current + 1) {
        lastStep = step;
        return generate({ secret, epoch: step * 30 });
      }
      await new Promise((resolve) => setTimeout(resolve, ((current + 1) * 30 - now) * 1000 + 250));
    }
  };
}

/** A call of the console API in the page's session (as the Security pages make it). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: object) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.fetch(url, {
    method,
    data,
    headers: { accept: 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) },
  });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return response;
}

/** Two-factor on and a payment password set (Settings > Security and Payment password do the same). */
async function guardMoney(page: Page) {
  await api(page, 'POST', '/api/user/confirm-password', { password: DEMO_PASSWORD });
  await api(page, 'POST', '/api/user/two-factor-authentication');
  const { secretKey } = (await (await api(page, 'GET', '/api/user/two-factor-secret-key')).json()) as {
    secretKey: string;
  };
  const nextCode = authenticator(secretKey);
  await api(page, 'POST', '/api/user/confirmed-two-factor-authentication', { code: await nextCode() });
  await api(page, 'PUT', '/api/merchant/payment-password', {
    password: DEMO_PASSWORD,
    payment_password: PAYMENT_PASSWORD,
    payment_password_confirmation: PAYMENT_PASSWORD,
    code: await nextCode(),
  });
  return nextCode;
}

test('withdraw from the console, rejected with the command line: the history says why and the money comes back', async ({
  page,
}) => {
  // The third Google code may wait for the authenticator's next period.
  test.setTimeout(300_000);
  const email = `withdraw-${Date.now()}@inr.demo.paydesk.test`;
  await runOps(
    'user:create',
    '--merchant',
    'M100002',
    '--email',
    email,
    '--name',
    'Withdrawal e2e',
    '--role',
    'FINANCE',
    '--password',
    DEMO_PASSWORD,
    '--reason',
    'withdrawal e2e',
  );
  await runOps(
    'funds:transfer-in',
    '--merchant',
    'M100002',
    '--amount',
    '5000.00',
    '--reason',
    'withdrawal e2e',
  );
  // Withdrawals are live only (DESIGN 12), of the live money ops moved in.
  await logIn(page, email, { mode: 'live' });
  const nextCode = await guardMoney(page);

  await page.goto('/withdrawal/apply');
  const form = page.getByRole('form', { name: 'Withdraw' });
  await expect(form.getByTestId('withdrawal-fee-text')).toContainText('USDT per withdrawal, 1 free per day');
  await expect(form.getByTestId('withdrawal-fee-text')).toContainText('Free withdrawals left today: 1');

  // A typo in the address is caught as it is typed (the TRON checksum), before anything is sent.
  await form.getByLabel('Wallet address').fill(`${TRON.slice(0, -1)}u`);
  await form.getByLabel('Amount').fill('20');
  await expect(form.getByText('The wallet address checksum is wrong: check every character.')).toBeVisible();
  await form.getByLabel('Wallet address').fill(TRON);
  await expect(form.getByTestId('withdrawal-deducted')).toHaveText('1,664.00 INR');
  await form.getByLabel('Payment password').fill(PAYMENT_PASSWORD);
  await form.getByLabel('Google code').fill(await nextCode());
  await form.getByRole('button', { name: /Withdraw$/ }).click();

  const dialog = page.getByRole('dialog').filter({ hasText: 'Confirm the withdrawal' });
  await expect(dialog).toContainText('check that the wallet address and the network are correct');
  await expect(dialog).toContainText(TRON);
  await expect(dialog).toContainText('TRC20 (TRON)');
  await dialog.getByRole('button', { name: 'Confirm and withdraw' }).click();

  await expect(page).toHaveURL(/\/withdrawal\/record\?withdrawal_no=W\d{23}$/);
  const no = new URL(page.url()).searchParams.get('withdrawal_no')!;
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Pending review');
  await expect(rows(page).first()).toContainText('20.00 USDT');
  await expect(rows(page).first()).toContainText('1,664.00 INR');

  // The operator rejects it from the command line, with the reason the merchant will read.
  const rejected = await runOps<{ withdrawal: { status: string; rejected_by: string } }>(
    'withdrawal:reject',
    '--no',
    no,
    '--reason',
    'The wallet could not be verified',
    '--operator',
    'e2e-operator',
  );
  expect(rejected.withdrawal).toMatchObject({ status: 'rejected', rejected_by: 'e2e-operator' });

  await page.reload();
  await expect(rows(page).first()).toContainText('Rejected');
  await expect(rows(page).first()).toContainText('The wallet could not be verified');
  await rows(page).first().getByRole('button', { name: 'Details' }).click();
  await expect(page.getByTestId('withdrawal-reject-reason')).toContainText(
    'The wallet could not be verified',
  );
  await page.keyboard.press('Escape');

  // Funds > Transactions: the money left at the request and came back at the rejection.
  await page.goto(`/fund/fundWater?ref_no=${no}`);
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(0)).toContainText('Withdrawal rejected');
  await expect(rows(page).nth(0)).toContainText('+1,664.00 INR');
  await expect(rows(page).nth(1)).toContainText('Withdrawal');
  await expect(rows(page).nth(1)).toContainText('-1,664.00 INR');
  await page.goto('/withdrawal/apply');
  // The balance is back unless another spec moved M100002's money meanwhile (payouts.spec pays from it on
  // the other worker): the two rows above are this withdrawal's whole effect.
  await expect(page.getByTestId('withdrawal-available')).not.toBeEmpty();
  // A rejected withdrawal gives its free one back.
  await expect(page.getByTestId('withdrawal-fee-text')).toContainText('Free withdrawals left today: 1');

  const report = await runOps<{ ok: boolean }>('ledger:verify', '--merchant', 'M100002');
  expect(report.ok).toBe(true);
});
