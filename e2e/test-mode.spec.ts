import type { Page } from '@playwright/test';
import { confirmPayout, createUser, enableStepUp, expect, logIn, test } from './fixtures.ts';

// Live and test mode in the console (issue 35 item 4, DESIGN 12): the header's switch, the Test data band,
// X-Mode: test on every call, top-ups and withdrawals live only, a test payout on the test balance, and
// back to live mode where none of it shows.

const PAYMENT_PASSWORD = 'pay-24680';
const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');
const band = (page: Page) => page.getByTestId('test-mode-band');
const modeSwitch = (page: Page) => page.getByTestId('mode-switch');

test('the Test mode switch: the band on every page, X-Mode: test on every call, top-ups live only', async ({
  page,
}) => {
  await logIn(page, await createUser('M100001', 'ROOT', 'test-mode-switch'), { mode: null });
  // The demo merchant has open live channels (bank transfer, manual payouts): the console opens in live
  // mode (DESIGN 12; a merchant without one would open in test mode, as Stripe opens a new account).
  await expect(modeSwitch(page)).not.toBeChecked();
  await expect(band(page)).toHaveCount(0);

  // Switching reads the list again, in test mode (X-Mode: test), on the sandbox history, with the band.
  await page.goto('/collection/payments');
  await expect(rows(page).first()).toBeVisible();
  const testList = page.waitForRequest(
    (request) =>
      request.url().includes('/api/merchant/collections') && request.headers()['x-mode'] === 'test',
  );
  await modeSwitch(page).click();
  await testList;
  await expect(band(page)).toContainText('Test data');
  await expect(rows(page).first()).toBeVisible();

  // And back: the list again, in live mode (no X-Mode), and the band goes; then test mode once more.
  const liveList = page.waitForRequest(
    (request) =>
      request.url().includes('/api/merchant/collections') && request.headers()['x-mode'] === undefined,
  );
  await modeSwitch(page).click();
  await liveList;
  await expect(band(page)).toHaveCount(0);
  await modeSwitch(page).click();
  await expect(band(page)).toContainText('Test data');

  // The band stays on every page, and the choice outlives a reload.
  await page.goto('/fund/fundWater');
  await expect(band(page)).toBeVisible();
  await page.reload();
  await expect(band(page)).toBeVisible();
  await expect(modeSwitch(page)).toBeChecked();

  // Top-ups are live only: the page says so and asks the server nothing.
  const topUpCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/merchant/recharge')) topUpCalls.push(request.url());
  });
  await page.goto('/recharge/topup');
  await expect(page.getByTestId('live-only')).toContainText('Live mode only');
  expect(topUpCalls).toEqual([]);
  await page.getByTestId('switch-to-live').click();
  await expect(band(page)).toHaveCount(0);
  await expect(page.getByTestId('live-only')).toHaveCount(0);
  await expect.poll(() => topUpCalls.length).toBeGreaterThan(0);
});

test('test mode: the sandbox history, test funds, a test payout, and back to live mode where none of it is', async ({
  page,
}) => {
  const email = await createUser('M100002', 'ROOT', 'test-mode-payout');
  await logIn(page, email);
  const nextCode = await enableStepUp(page, PAYMENT_PASSWORD);

  // Test mode (logIn switches to it): the sandbox history of the demo, and every list says it is of test
  // mode.
  const testList = page.waitForResponse(
    (response) =>
      response.url().includes('/api/merchant/collections?') &&
      response.request().headers()['x-mode'] === 'test',
  );
  await page.goto('/collection/payments');
  expect(((await (await testList).json()) as { meta: { mode: string } }).meta.mode).toBe('test');
  await expect(rows(page).first()).toBeVisible();

  // Settings > Test data, from the band: add test funds; the test balance shows the new amount.
  await band(page).getByRole('link', { name: 'Manage test data' }).click();
  await expect(page).toHaveURL(/\/setting\/test-data$/);
  const funds = page.getByTestId('test-funds');
  // 1,000,000.00 INR of starting test funds, and what the sandbox history left.
  await expect(funds.getByTestId('test-balance')).toContainText(/Available1,000,\d{3}\.\d{2}INR/);
  await funds.getByLabel('Amount').fill('5000');
  await funds.getByRole('button', { name: /Add test funds/ }).click();
  await expect(page.getByText(/Test funds added\. Test balance available:/)).toBeVisible();

  // A test payout (India's form), paid from the test balance by the sandbox.
  await page.goto('/behalfPay/apply');
  await expect(band(page)).toBeVisible();
  await page.getByLabel('IFSC code').fill('hdfc0001234');
  await page.getByLabel('Payee').fill('Test Payee');
  await page.getByLabel('Receiving account').fill('50100123456789');
  await page.getByLabel('Amount', { exact: true }).fill('123');
  await page.getByLabel('Payment password').fill(PAYMENT_PASSWORD);
  await page.getByLabel('Google code').fill(await nextCode());
  await page.getByRole('button', { name: /Pay$/ }).click();
  const tradeNo = await confirmPayout(page, 'Confirm information is correct and pay', 'Confirm and pay');
  await expect(rows(page).filter({ hasText: tradeNo })).toBeVisible();

  // Back to live mode: the test payout is not there, not even by its number.
  await modeSwitch(page).click();
  await expect(band(page)).toHaveCount(0);
  await expect(page.getByText(tradeNo, { exact: true })).toHaveCount(0);
  await page.goto(`/behalfPay/transfers?trade_no=${tradeNo}`);
  await expect(page.locator('.data-table')).toBeVisible();
  await expect(rows(page).filter({ hasText: tradeNo })).toHaveCount(0);
});
