import type { Page } from '@playwright/test';
import { expect, logIn, runOps, test } from './fixtures.ts';

// A top-up end to end: the merchant sends USDT, submits the amount and the transfer's screenshot in the
// console; an operator approves it with the command line (the USDT received and the rate); the history shows
// it approved with what was credited, and Funds > Transactions shows the balance risen by that amount.
// The INR demo merchant, so the CNY merchant's fund flow that other journeys read stays as it was.

const INR_ROOT = 'root@inr.demo.paydesk.test';
// A 24 x 16 PNG (a real image: the server re-encodes it).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWMQK/9PFcQwapDYaBiJjaaj8tEsUk5+OgAABmZSH2QWZ/IAAAAASUVORK5CYII=',
  'base64',
);

const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

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
