import type { Page } from '@playwright/test';
import { DEMO, expect, logIn, test } from './fixtures.ts';

const sidebar = (page: Page) => page.locator('.sidebar');
const tabs = (page: Page) => page.locator('.tags-view');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A pinned tab's name starts with its pin's label ("Pinned Dashboard").
const tab = (page: Page, name: string) =>
  tabs(page).getByRole('tab', { name: new RegExp(`(^|\\s)${escape(name)}$`) });

async function openFromMenu(page: Page, group: string | null, item: string) {
  if (group) {
    const submenu = sidebar(page).getByRole('menuitem', { name: group, exact: true });
    if ((await submenu.getAttribute('aria-expanded')) !== 'true') await submenu.click();
  }
  // A click that lands while the submenu is still opening can be lost (seen with both cores busy): the
  // user clicks again, and so does this.
  const heading = page.locator('.app-main').getByRole('heading', { name: item, exact: true });
  await expect(async () => {
    await sidebar(page).getByRole('menuitem', { name: item, exact: true }).click();
    await expect(heading).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
}

async function expandSidebar(page: Page) {
  const hamburger = page.getByTestId('hamburger');
  // The sidebar starts closed (spec: sidebarStatus defaults to closed).
  await expect(hamburger).toHaveAttribute('aria-expanded', 'false');
  await hamburger.click();
  await expect(hamburger).toHaveAttribute('aria-expanded', 'true');
}

async function tabMenu(page: Page, name: string, action: string) {
  await tab(page, name).click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: action }).click();
}

test('tags view: Dashboard pinned, pages from the menu become tabs, close others, refresh', async ({
  page,
}) => {
  // Tall enough for the Access key page: the tags view scrolls with a long page (fixedHeader is false),
  // and its context menu is what is tested here, not scrolling.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await logIn(page, DEMO.ROOT);
  await expect(tab(page, 'Dashboard')).toBeVisible();
  await expect(tabs(page).getByRole('tab', { name: 'Pinned Dashboard' })).toBeVisible();
  // Pinned: no close button.
  await expect(tabs(page).locator('.ant-tabs-tab').first().getByRole('button')).toHaveCount(0);

  await expandSidebar(page);
  await openFromMenu(page, 'Receive money', 'Transactions');
  await openFromMenu(page, 'Funds', 'Fund transactions');
  await openFromMenu(page, 'Settings', 'Access key');
  await expect(page).toHaveTitle('Access key - Paydesk');
  await expect(page.locator('.app-breadcrumb')).toHaveText(/Dashboard\s*\/\s*Settings\s*\/\s*Access key/);
  await expect(tabs(page).getByRole('tab')).toHaveText([
    'Dashboard',
    'Transactions',
    'Fund transactions',
    'Access key',
  ]);

  // Closing a tab with its button goes to the last tab left.
  await tabs(page).locator('.ant-tabs-tab', { hasText: 'Access key' }).getByRole('button').click();
  await expect(page).toHaveURL(/\/fund\/fundWater$/);
  await openFromMenu(page, 'Settings', 'Access key');

  await tabMenu(page, 'Transactions', 'Close others');
  await expect(tabs(page).getByRole('tab')).toHaveText(['Dashboard', 'Transactions']);
  await expect(page).toHaveURL(/\/collection\/payments$/);

  // Refresh goes through /redirect/<path> and mounts the page afresh: it fetches its data again.
  await openFromMenu(page, 'Settings', 'Access key');
  await expect(page.getByText('Access key', { exact: true }).nth(1)).toBeVisible();
  const refetch = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/merchant/access-key');
  const viaRedirect = page.waitForURL(/\/redirect\/setting\/interfaceKey$/);
  await tabMenu(page, 'Access key', 'Refresh');
  await viaRedirect;
  await refetch;
  await expect(page).toHaveURL(/\/setting\/interfaceKey$/);
  await expect(tabs(page).getByRole('tab')).toHaveText(['Dashboard', 'Transactions', 'Access key']);

  await tabMenu(page, 'Access key', 'Close all');
  await expect(tabs(page).getByRole('tab')).toHaveText(['Dashboard']);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('pages are kept alive: a half-filled form survives a tab switch, not the closing of its tab', async ({
  page,
}) => {
  // The top-up form is live only (DESIGN 12).
  await logIn(page, DEMO.ROOT, { mode: 'live' });
  await expandSidebar(page);
  await openFromMenu(page, 'Top-ups', 'Top-up');
  const amount = page.getByRole('textbox', { name: 'Recharge amount' });
  await amount.fill('123.45');
  await openFromMenu(page, 'Settings', 'IP whitelist');
  await expect(tabs(page).getByRole('tab')).toHaveText(['Dashboard', 'Top-up', 'IP whitelist']);
  await expect(amount).toBeHidden();

  await tab(page, 'Top-up').click();
  await expect(page).toHaveURL(/\/recharge\/topup$/);
  await expect(amount).toHaveValue('123.45');

  // Closed, then opened again: a new form.
  await tab(page, 'IP whitelist').click();
  await tabs(page).locator('.ant-tabs-tab', { hasText: 'Top-up' }).getByRole('button').click();
  await openFromMenu(page, 'Top-ups', 'Top-up');
  await expect(amount).toHaveValue('');
});

test('the menu and the titles follow the language: Tiếng Việt, 简体中文, English', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await logIn(page, DEMO.ROOT);
  await expandSidebar(page);
  await openFromMenu(page, 'Withdrawals', 'Withdrawal history');
  const shoot = async (language: string) =>
    page.screenshot({ path: testInfo.outputPath(`layout-${language}.png`), fullPage: true });
  await shoot('en');

  const switchTo = async (name: string) => {
    await page.getByTestId('language-switch').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name }).click();
  };

  await switchTo('Tiếng Việt');
  await expect(sidebar(page).getByRole('menuitem', { name: 'Tổng quan' })).toBeVisible();
  await expect(sidebar(page).getByRole('menuitem', { name: 'Rút tiền', exact: true })).toBeVisible();
  await expect(tab(page, 'Lịch sử rút tiền')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Lịch sử rút tiền' })).toBeVisible();
  await expect(page).toHaveTitle('Lịch sử rút tiền - Paydesk');
  await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
  await shoot('vi');

  await switchTo('简体中文');
  await expect(sidebar(page).getByRole('menuitem', { name: '首页' })).toBeVisible();
  await expect(tab(page, '提现记录')).toBeVisible();
  await expect(page).toHaveTitle('提现记录 - Paydesk');
  await shoot('zh-cn');

  await switchTo('English');
  await expect(sidebar(page).getByRole('menuitem', { name: 'Dashboard' })).toBeVisible();
  await expect(tab(page, 'Withdrawal history')).toBeVisible();
  await expect(page).toHaveTitle('Withdrawal history - Paydesk');

  // Stored: a reload keeps the language.
  await switchTo('Tiếng Việt');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Lịch sử rút tiền' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('vi');
});

test('a VIEWER opening the access key lands on /403, and the server refuses the call too', async ({
  page,
}) => {
  await logIn(page, DEMO.VIEWER);
  await expandSidebar(page);
  await sidebar(page).getByRole('menuitem', { name: 'Settings', exact: true }).click();
  await expect(sidebar(page).getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await expect(sidebar(page).getByRole('menuitem', { name: 'Access key' })).toHaveCount(0);

  await page.goto('/setting/interfaceKey');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByText("Sorry, you don't have permission to go to this page")).toBeVisible();

  const refused = await page.request.get('/api/merchant/access-key', {
    headers: { accept: 'application/json' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toBeTruthy();
});

test('an unknown path lands on /404, with or without a session', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await logIn(page, DEMO.OPERATOR);
  await page.goto('/collection/nothing-here');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('Sorry, the page you visited does not exist')).toBeVisible();
  await page.getByRole('button', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('/behalfPay lands on the send money history', async ({ page }) => {
  await logIn(page, DEMO.OPERATOR);
  await page.goto('/behalfPay');
  await expect(page).toHaveURL(/\/behalfPay\/transfers$/);
  await expect(tab(page, 'Send money history')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Send money history' })).toBeVisible();
});

test('a session ended on the server brings the "log in again" dialog once', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.expectConsoleError(/status of 401/);
  await logIn(page, DEMO.ROOT);
  await page.goto('/setting/interfaceKey');
  await expect(page.getByRole('heading', { name: 'Access key' })).toBeVisible();

  // Log out behind the page's back (same cookies, as another tab would).
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const logout = await page.request.post('/api/logout', {
    headers: { accept: 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) },
  });
  expect(logout.status()).toBe(204);

  // The user comes back to the window three times: each time the page refetches (the key and the
  // whitelist) and gets 401.
  for (let i = 0; i < 3; i++) {
    const failed = page.waitForResponse(
      (r) =>
        /^\/api\/merchant\/(access-key|ip-address)$/.test(new URL(r.url()).pathname) && r.status() === 401,
    );
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await failed;
  }
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toHaveCount(1);
  await expect(dialog).toContainText('The current page is invalid, please log in again');
  await page.waitForTimeout(300);
  await expect(dialog).toHaveCount(1);

  await dialog.getByRole('button', { name: 'Log in again' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsetting%2FinterfaceKey$/);
});

test('on a narrow window the menu is a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await logIn(page, DEMO.FINANCE);
  await expect(page.locator('.app-sider')).toHaveCount(0);
  await page.getByTestId('hamburger').click();
  const drawer = page.locator('.sidebar-drawer');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('menuitem', { name: 'Top-ups', exact: true }).click();
  // A tap while the submenu still unfolds can land on the moving list and do nothing (one CI run): as a
  // person would, tap the entry again until the page changes.
  await expect(async () => {
    if (!/\/recharge\/record$/.test(page.url()))
      await drawer.getByRole('menuitem', { name: 'Top-up history' }).click({ timeout: 2_000 });
    await expect(page).toHaveURL(/\/recharge\/record$/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(drawer).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('device'))).toBe('mobile');
});

// "Done when": each role walks every entry of its menu, in a language, with no console error (the fixture
// fails the test on one, including a missing translation) and, in Chinese, no English left in the shell.
// Receive money > Refunds and Settings > Webhook deliveries are for those who see collections (not FINANCE);
// FINANCE approves payouts, so it sees Send money's history; Payout approval and Team are ROOT's settings.
const WALKS = [
  { role: 'ROOT', language: 'zh-cn', pages: 23 },
  { role: 'FINANCE', language: 'vi', pages: 13 },
  { role: 'OPERATOR', language: 'en', pages: 12 },
  { role: 'VIEWER', language: 'zh-cn', pages: 14 },
] as const;

for (const { role, language, pages } of WALKS) {
  test(`${role} walks every menu entry in ${language}`, async ({ page }) => {
    test.setTimeout(180_000);
    await logIn(page, DEMO[role], { language });
    await page.getByTestId('hamburger').click();
    const entries = sidebar(page).locator('.ant-menu-root > li');
    const visited: string[] = [];
    for (let i = 0; i < (await entries.count()); i++) {
      const entry = entries.nth(i);
      const isGroup = (await entry.getAttribute('class'))?.includes('ant-menu-submenu');
      if (isGroup) {
        const title = entry.locator('.ant-menu-submenu-title');
        if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
      }
      const items = isGroup ? entry.locator('.ant-menu-item') : entry;
      for (let j = 0; j < (await items.count()); j++) {
        const item = items.nth(j);
        const label = (await item.innerText()).trim();
        await item.click();
        // Pages kept alive stay in the document, hidden: the page shown is the visible one.
        await expect(page.locator('.app-main h4:visible').first()).toHaveText(label);
        await expect(tab(page, label)).toBeVisible();
        await expect(page).toHaveTitle(`${label} - Paydesk`);
        if (language === 'zh-cn') {
          // The shell's own words: menu, navbar, tabs and the page title (pages test their content).
          const chrome = await page
            .locator('.sidebar, .navbar, .tags-view, .app-main h4:visible')
            .allInnerTexts();
          // "IP" is what Chinese calls it too (IP 白名单).
          const text = chrome.join(' ').replace(/Paydesk|Demo (Root|Viewer|Finance|Operator)|\bIP\b/g, '');
          expect(text.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);
        }
        visited.push(label);
      }
    }
    expect(visited).toHaveLength(pages);
  });
}

test('page settings and size are kept after a reload; the user menu logs out', async ({ page }) => {
  await logIn(page, DEMO.FINANCE);
  await page.getByTestId('settings-button').click();
  const drawer = page.getByRole('dialog', { name: 'Page settings' });
  await drawer.getByRole('switch', { name: 'Tags view' }).click();
  await expect(page.locator('.tags-view')).toHaveCount(0);
  await drawer.getByRole('switch', { name: 'Fixed header' }).click();
  await expect(page.locator('.app-header--fixed')).toHaveCount(1);
  await drawer.getByRole('switch', { name: 'Watermark' }).click();
  await drawer.getByRole('textbox', { name: 'Watermark text' }).fill('Confidential');
  await expect(page.locator('.app-layout div[style*="background-image"]')).not.toHaveCount(0);

  // Theme colour: a preset applies to antd's tokens and to the console's own styles.
  await drawer.locator('.ant-color-picker-trigger').click();
  await page.locator('.ant-color-picker-presets-color').nth(3).click();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--paydesk-primary')))
    .toBe('#52c41a');
  await expect(page.getByRole('switch', { name: 'Tags view' })).toHaveCSS(
    'background-color',
    'rgba(0, 0, 0, 0.25)',
  );
  await expect(page.getByRole('switch', { name: 'Fixed header' })).toHaveCSS(
    'background-color',
    'rgb(82, 196, 26)',
  );
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  await page.getByTestId('size-switch').click();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: 'Large' }).click();
  await expect(page.getByTestId('settings-button')).toHaveClass(/ant-btn-lg/);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.locator('.tags-view')).toHaveCount(0);
  await expect(page.locator('.app-header--fixed')).toHaveCount(1);
  await expect(page.getByTestId('settings-button')).toHaveClass(/ant-btn-lg/);
  expect(await page.evaluate(() => localStorage.getItem('size'))).toBe('large');

  await page.getByTestId('user-menu').click();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
});
