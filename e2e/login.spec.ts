import { DEMO, DEMO_PASSWORD, expect, test } from './fixtures.ts';

// The console starts in Chinese (spec section 1): these journeys run in it.
test('a merchant logs in through the console with the demo ROOT login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
  await page.getByLabel('用户名').fill(DEMO.ROOT);
  await page.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('欢迎，Demo Root')).toBeVisible();
  await expect(page).toHaveTitle('首页 - Paydesk');
});

test('the login form checks its fields and shows the server refusal in place', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.expectConsoleError(/status of 422/);
  await page.goto('/login');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('请输入用户名')).toBeVisible();
  await expect(page.getByText('请输入密码')).toBeVisible();

  await page.getByLabel('用户名').fill(DEMO.FINANCE);
  await page.getByLabel('密码', { exact: true }).fill('not-the-password');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.getByRole('button', { name: '登录' }).click();
  expect((await answer).status()).toBe(422);
  // The server's message, in the page's language, under the username.
  await expect(page.locator('#username-error')).toHaveText('账号或密码错误。');
  await expect(page).toHaveURL(/\/login$/);
});

test('after login the console goes where the user was headed (?redirect=)', async ({ page }) => {
  await page.goto('/fund/fundWater?page=2');
  await expect(page).toHaveURL(/\/login\?redirect=%2Ffund%2FfundWater%3Fpage%3D2$/);
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByLabel('Username').fill(DEMO.FINANCE);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/fund\/fundWater\?page=2$/);
  await expect(page.getByRole('heading', { name: 'Fund transactions' })).toBeVisible();
});
