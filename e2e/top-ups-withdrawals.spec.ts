import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_PASSWORD, expect, logIn, runOps, test } from './fixtures.ts';

// The INR demo merchant's live USDT journeys, in one file so that they never run beside each other (the
// tests of a file run in turn on one worker): each checks how its own steps move the available balance, and
// no other spec moves M100002's live money.
//
// Top up end to end: the merchant sends USDT, submits the amount and the transfer's screenshot in the
// console; an operator approves it with the command line (the USDT received and the rate); the history shows
// it approved with what was credited, and Funds > Transactions shows the balance risen by that amount.
//
// Withdraw end to end: a finance user of the INR demo merchant withdraws USDT from the console behind the
// payment password and a Google code; an operator rejects it with the command line; the history shows why,
// and Funds > Transactions shows the money come back.

const PAYMENT_PASSWORD = 'pay-13579';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const INR_ROOT = 'root@inr.demo.paydesk.test';
// A 24 x 16 PNG (a real image: the server re-encodes it).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWMQK/9PFcQwapDYaBiJjaaj8tEsUk5+OgAABmZSH2QWZ/IAAAAASUVORK5CYII=',
  'base64',
);

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

test('top up with a screenshot, approve it with the ops command line, see the balance rise', async ({
  page,
}) => {
  // Top-ups are live only (DESIGN 12).
  await logIn(page, INR_ROOT, { language: 'en', mode: 'live' });
  const availableBefore = await page.getByTestId('funds-available').innerText();

  await page.goto('/recharge/topup');
  await expect(page.locator('.app-main').getByRole('heading', { name: 'Top-up', exact: true })).toBeVisible();
  // The deposit address follows the network, with its QR code.
  await expect(page.getByTestId('deposit-address')).toHaveText(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  await page.getByText('ERC20', { exact: true }).click();
  await expect(page.getByTestId('deposit-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('deposit-qr')).toBeVisible();

  // Nothing is sent without the amount and the screenshot.
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Please enter the recharge amount')).toBeVisible();
  await expect(page.getByText('Please upload the screenshot of the transfer')).toBeVisible();

  await page.getByLabel('Recharge amount').fill('120.5');
  await expect(page.getByTestId('top-up-rate')).toContainText('1 USDT ≈ 83.20 INR');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('screenshot-preview')).toContainText('transfer.png');
  await page.getByRole('button', { name: 'Submit for review' }).click();

  // The history: pending review, the address it was sent to, the screenshot served back.
  await expect(page).toHaveURL(/\/recharge\/record$/);
  const first = rows(page).first();
  await expect(first).toContainText('Pending review');
  await expect(first).toContainText('120.500000 USDT');
  await expect(first).toContainText('ERC20');
  const topUpNo = (await first.locator('td').first().innerText()).trim();
  expect(topUpNo).toMatch(/^R\d{23}$/);
  await expect(first.getByTestId('top-up-screenshot')).toBeVisible();

  // The operator checks it and approves it from the command line.
  const shown = await runOps<{ status: string; amount: string; merchant: string }>(
    'topup:show',
    '--no',
    topUpNo,
  );
  expect(shown).toMatchObject({ status: 'pending_review', amount: '120.500000', merchant: 'M100002' });
  const approved = await runOps<{ credited_amount: string; status: string }>(
    'topup:approve',
    '--no',
    topUpNo,
    '--received',
    '120.5',
    '--rate',
    '83.2',
    '--reason',
    'e2e: seen on chain',
  );
  // 120.5 x 83.2 = 10,025.60 INR
  expect(approved).toMatchObject({ status: 'approved', credited_amount: '10025.60' });

  await page.reload();
  await expect(rows(page).first()).toContainText('Approved');
  await expect(rows(page).first()).toContainText('10,025.60 INR');
  await rows(page).first().getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText('e2e: seen on chain');
  await expect(drawer).toContainText('83.2');
  await page.keyboard.press('Escape');

  // Funds > Transactions: the top-up entry (type recharge), newest first, and the balance after it.
  await page.goto('/fund/fundWater');
  const entry = rows(page).first();
  await expect(entry).toContainText('Top-up');
  await expect(entry).toContainText('+10,025.60 INR');
  await expect(entry).toContainText(topUpNo);

  await page.goto('/dashboard');
  const before = Number(availableBefore.replace(/[^0-9.]/g, ''));
  await expect
    .poll(async () => Number((await page.getByTestId('funds-available').innerText()).replace(/[^0-9.]/g, '')))
    .toBeCloseTo(before + 10025.6, 2);
});
