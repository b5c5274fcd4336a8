import type { Page } from '@playwright/test';
import { DEMO, expect, logIn, test } from './fixtures.ts';

// What a finance team opens every morning: the Dashboard with its charts, the daily reports that reconcile
// with Funds > Transactions, and Contact us, in English, Chinese and Vietnamese.

/** Set SHOTS_DIR to keep a full-page screenshot of each page as the test sees it. */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

type Money =
  | 'opening_balance'
  | 'closing_balance'
  | 'collection_amount'
  | 'collection_fee'
  | 'payout_amount'
  | 'payout_fee'
  | 'refunds'
  | 'collection_refunds'
  | 'top_ups'
  | 'withdrawals'
  | 'transfers'
  | 'freezes';
type DailyReportAnswer = { data: ({ date: string; final: boolean } & Record<Money, string>)[] };

/** "12,345.67" or "-12.50" -> minor units (two decimals: the demo merchant is in CNY). */
const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, '')) * 100);

test('the Dashboard draws its charts from the demo traffic and each figure opens its list (en)', async ({
  page,
}) => {
  await logIn(page, DEMO.ROOT);
  const trends = page.getByTestId('dashboard-trends');
  await expect(trends.getByText('Last 7 days', { exact: true })).toBeVisible();
  // The charts are SVG: bars for the amounts, points (and lines) for the success rate, a ring for the mix.
  const amounts = page.getByTestId('chart-amounts');
  await expect(amounts.locator('svg rect.chart-bar').first()).toBeAttached();
  await expect(
    page.getByTestId('chart-success-rate').locator('svg circle.chart-point').first(),
  ).toBeAttached();
  await expect(
    page.getByTestId('chart-mix-collection').locator('svg path.chart-slice').first(),
  ).toBeAttached();
  // Today's column, at the right edge: its tooltip opens on the left, inside the chart.
  const chart = (await amounts.boundingBox())!;
  await amounts.hover({ position: { x: chart.width - 20, y: chart.height / 2 } });
  const tooltip = amounts.getByRole('tooltip');
  await expect(tooltip).toContainText('Collections');
  const tip = (await tooltip.boundingBox())!;
  expect(tip.x).toBeGreaterThanOrEqual(chart.x);
  expect(tip.x + tip.width).toBeLessThanOrEqual(chart.x + chart.width);
  await expect(page.getByTestId('trend-total-collection')).toContainText('Yuan');
  await shot(page, 'dashboard-en');

  await trends.getByText('30 days', { exact: true }).click();
  await expect(trends.getByText('Last 30 days', { exact: true })).toBeVisible();
  // A status of the mix opens the collections of that status over the 30 days.
  const paid = page.getByTestId('mix-collection').getByRole('link', { name: /^Paid: / });
  await paid.click();
  await expect(page).toHaveURL(
    /\/collection\/payments\?status=paid&start_time=\d{4}-\d{2}-\d{2}&end_time=\d{4}-\d{2}-\d{2}$/,
  );
  await expect(page.locator('.data-table tbody tr.data-table__row:visible').first()).toBeVisible();

  // Contact us in English: each channel opens in its own app.
  await page.goto('/contactUs');
  await expect(page.getByRole('link', { name: 'Open in WhatsApp' })).toHaveAttribute(
    'href',
    'https://wa.me/85255550100',
  );
  await expect(page.getByTestId('contact-hours')).toContainText('Every day, 09:00–21:00 (UTC+8)');
  await shot(page, 'contact-en');
});

test('the Dashboard reads in Chinese, its charts too (zh-cn)', async ({ page }) => {
  await logIn(page, DEMO.OPERATOR, { language: 'zh-cn' });
  const trends = page.getByTestId('dashboard-trends');
  await expect(trends.getByText('近 7 天', { exact: true })).toBeVisible();
  await expect(page.getByTestId('chart-amounts')).toContainText('代收');
  await expect(page.getByTestId('mix-payout').getByRole('link', { name: /^成功: / })).toBeVisible();
  await shot(page, 'dashboard-zh-cn');
});

test('daily reports reconcile to the cent with Funds > Transactions of the same day (en, zh-cn)', async ({
  page,
}) => {
  // The demo's five weeks of fund history are live money, and the report's call below (no X-Mode) reads live
  // mode: the page must show the same mode.
  await logIn(page, DEMO.FINANCE, { mode: 'live' });
  await page.goto('/fund/dailyReport');
  const rows = page.locator('.data-table tbody tr.data-table__row:visible');
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().getByText('Live')).toBeVisible();
  await expect(page.getByTestId('daily-report-sums')).toContainText('Asia/Shanghai');
  await shot(page, 'daily-report-en');

  // Every day of the answer: opening + the day's entries = closing, and the next day opens where it closed.
  const report = (await (
    await page.request.get('/api/merchant/daily-reports?per_page=100')
  ).json()) as DailyReportAnswer;
  expect(report.data.length).toBe(30);
  const oldestFirst = [...report.data].reverse();
  for (const [i, day] of oldestFirst.entries()) {
    const moved =
      cents(day.collection_amount) -
      cents(day.collection_fee) -
      cents(day.payout_amount) -
      cents(day.payout_fee) +
      cents(day.refunds) +
      cents(day.collection_refunds) +
      cents(day.top_ups) +
      cents(day.withdrawals) +
      cents(day.transfers) +
      cents(day.freezes);
    expect(cents(day.opening_balance) + moved, day.date).toBe(cents(day.closing_balance));
    if (i > 0) expect(day.opening_balance, day.date).toBe(oldestFirst[i - 1].closing_balance);
  }

  // A day opens its Transactions: the same movement, from the list's own sums.
  const yesterday = rows.nth(1);
  // Just after midnight yesterday is not kept yet and its cell also carries the "Live" tag: read the date alone.
  const date = /\d{4}-\d{2}-\d{2}/.exec(await yesterday.locator('td').first().innerText())?.[0] ?? '';
  expect(date).not.toBe('');
  const opening = cents(await yesterday.locator('td').nth(1).innerText());
  // Date, opening, collections, payouts, six movements (refunds, collection refunds, ...), closing.
  const closing = cents(await yesterday.locator('td').nth(10).innerText());
  await yesterday.getByRole('link', { name: `Open the transactions of ${date}` }).click();
  await expect(page).toHaveURL(
    new RegExp(`/fund/fundWater\\?start_time=${date}\\+00%3A00%3A00&end_time=${date}\\+23%3A59%3A59`),
  );
  const sums = page.getByTestId('fund-flow-sums');
  await expect(sums).toBeVisible();
  const text = await sums.innerText();
  const moneyIn = cents(/Money in[:\s]*([+\-0-9.,]+)/.exec(text)?.[1] ?? '0');
  const moneyOut = cents(/Money out[:\s]*([+\-0-9.,]+)/.exec(text)?.[1] ?? '0');
  expect(opening + moneyIn + moneyOut).toBe(closing);

  await page.evaluate(() => localStorage.setItem('language', 'zh-cn'));
  await page.goto('/fund/dailyReport');
  await expect(page.getByRole('columnheader', { name: '期初余额' })).toBeVisible();
  await expect(page.getByText('实时')).toBeVisible();
  await shot(page, 'daily-report-zh-cn');
});

test('contact us shows the support channels in Chinese and Vietnamese, and copies one', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page, DEMO.VIEWER, { language: 'zh-cn' });
  await page.goto('/contactUs');
  await expect(page.getByRole('heading', { name: '联系我们' })).toBeVisible();
  await expect(page.getByTestId('contact-hours')).toContainText('每天 09:00–21:00（UTC+8）');
  await expect(page.getByRole('link', { name: '在 Telegram 中打开' })).toHaveAttribute(
    'href',
    'https://t.me/paydesk_support',
  );
  await page.getByRole('button', { name: '复制电子邮件联系方式' }).click();
  await expect(page.getByText('已复制：support@paydesk.example')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('support@paydesk.example');
  await shot(page, 'contact-zh-cn');

  await page.evaluate(() => localStorage.setItem('language', 'vi'));
  await page.reload();
  await expect(page.getByTestId('contact-hours')).toContainText('Hằng ngày, 09:00–21:00 (UTC+8)');
  await expect(page.getByRole('link', { name: 'Gửi thư' })).toHaveAttribute(
    'href',
    'mailto:support@paydesk.example',
  );
  await shot(page, 'contact-vi');
});
