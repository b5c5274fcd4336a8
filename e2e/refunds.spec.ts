import type { Page } from '@playwright/test';
import { createUser, enableStepUp, expect, logIn, test } from './fixtures.ts';

// Refunds (DESIGN 14) as a new user meets them: a ROOT user of the VND demo merchant refunds part of a paid
// sandbox order from its detail, behind both factors; the refund finishes on the sandbox channel and shows
// in Receive money > Refunds, with its fund flow. Then the list in Vietnamese, with the demo's refunds.

const PAYMENT_PASSWORD = 'pay-24680';
const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

test('a paid order is refunded in part from its detail, and the refund succeeds (en)', async ({ page }) => {
  const email = await createUser('M100004', 'ROOT', 'refund-en');
  await logIn(page, email, { language: 'en' });
  const nextCode = await enableStepUp(page, PAYMENT_PASSWORD);

  // Today's paid order (not settled yet): its detail offers the Refund action.
  await page.goto('/collection/payments?status=paid');
  await rows(page).first().getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: 'Refunded' });
  await expect(drawer).toContainText('Refundable');
  // The action's button carries its icon's name too ("rollback Refund").
  await drawer
    .getByTestId('order-refunds')
    .getByRole('button', { name: /Refund$/ })
    .click();

  const form = page.getByRole('dialog').filter({ hasText: 'Refund order' });
  const amount = form.getByLabel('Refund amount');
  // Prefilled with the whole refundable amount; this refund gives back 10,000 VND of it.
  await expect(amount).not.toHaveValue('');
  await amount.fill('10000');
  await form.getByLabel('Reason').fill('One item was out of stock');
  await form.getByLabel('Payment password').fill(PAYMENT_PASSWORD);
  await form.getByLabel('Google code').fill(await nextCode());
  await form.screenshot({ path: test.info().outputPath('refund-form-en.png') });
  await form.getByRole('button', { name: 'Refund', exact: true }).click();
  const created = page.getByText(/Refund R\d+ created/);
  await expect(created).toBeVisible();
  const refundNo = (await created.textContent())!.match(/R\d+/)![0];
  await expect(drawer).toContainText('10,000');

  // The sandbox finishes it after the channel's delay: the list reads it again until it says so.
  await page.goto(`/collection/refunds?refund_no=${refundNo}`);
  await expect(async () => {
    await page.reload();
    await expect(rows(page).first()).toContainText('Succeeded', { timeout: 10_000 });
  }).toPass({ timeout: 120_000 });
  await expect(rows(page).first()).toContainText('One item was out of stock');
  await page.screenshot({ path: test.info().outputPath('refunds-page-en.png'), fullPage: true });

  // Its fund flow: the amount left the available balance when the refund was made.
  await page.goto(`/fund/fundWater?ref_no=${refundNo}`);
  await expect(rows(page).first()).toContainText('Collection refund');
  await expect(rows(page).first()).toContainText('-10,000');
});

test("the demo's refunds in Vietnamese, and a failed one's reason in its detail (vi)", async ({ page }) => {
  const email = await createUser('M100004', 'VIEWER', 'refund-vi');
  await logIn(page, email, { language: 'vi' });
  await page.goto('/collection/refunds');
  await expect(rows(page).filter({ hasText: 'DEMO-REFUND-1' })).toContainText('Hoàn tiền thành công');
  const failed = rows(page).filter({ hasText: 'DEMO-REFUND-2' });
  await expect(failed).toContainText('Hoàn tiền thất bại');
  await page.screenshot({ path: test.info().outputPath('refunds-page-vi.png'), fullPage: true });
  await failed.getByRole('button', { name: 'Chi tiết' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText('Sandbox: the payer account refused the refund.');
  await drawer.screenshot({ path: test.info().outputPath('refund-drawer-vi.png') });
});
