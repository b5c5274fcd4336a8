import { expect, test } from '@playwright/test';

test('a merchant logs in through the console with the demo ROOT login', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill('root@demo.paydesk.test');
  await page.getByLabel('Password').fill('paydesk-demo');
  await page.getByRole('button', { name: /log in/i }).click();
  await expect(page.getByText('Dashboard: Demo Root')).toBeVisible();
});
