import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { DEMO, expect, logIn, test } from './fixtures.ts';

// Offline exports: a finance user exports Funds > Transactions (filtered) to CSV and to XLSX from the
// list's Export button, follows the message to the Exports page, and downloads both files.

const SHOTS = '/tmp/shots-exports';
const FILTER = '/fund/fundWater?type=collection_settlement';

/** The number of transactions the list's sums show for the filter. */
async function entriesShown(page: Page): Promise<number> {
  const sums = page.getByTestId('fund-flow-sums');
  await expect(sums).toBeVisible();
  const text = (await sums.textContent()) ?? '';
  const match = /(?:Transactions|交易笔数|笔数)\D*([\d,]+)\s*$/.exec(text.trim());
  return Number((match?.[1] ?? text.replace(/.*\D([\d,]+)\s*$/, '$1')).replace(/,/g, ''));
}

/** Page transitions and toasts have finished (for screenshots). */
const settled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

async function exportFromList(page: Page, format: 'CSV' | 'Excel') {
  await page.getByTestId('export-button').click();
  await page.getByRole('menuitem', { name: new RegExp(format) }).click();
  await expect(page.getByTestId('export-created')).toBeVisible();
}

async function downloadNewest(page: Page, extension: 'csv' | 'xlsx') {
  const row = page.locator('.data-table tbody tr.data-table__row:visible').first();
  await expect(row).toContainText(extension.toUpperCase());
  await expect(row).toContainText('Export successful', { timeout: 30_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /Download/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^fund_flows-\\d{8}-\\d{4}-\\d+\\.${extension}$`));
  return readFileSync((await download.path())!);
}

test('Funds > Transactions exports to CSV and XLSX, both downloaded from the Exports page', async ({
  page,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await logIn(page, DEMO.FINANCE);
  await page.goto(FILTER);
  const expected = await entriesShown(page);
  expect(expected).toBeGreaterThan(0);
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/fund-water-export-button-en.png`, fullPage: true });

  await exportFromList(page, 'CSV');
  await page.getByRole('link', { name: 'See it in Exports' }).click();
  await expect(page).toHaveURL(/\/lineExport/);
  const csv = await downloadNewest(page, 'csv');
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'Transaction number,Time,Transaction type,Transaction amount,Balance after transaction,Currency,Reference number,Note',
  );
  expect(lines).toHaveLength(expected + 1);
  expect(lines.slice(1).every((line) => line.includes(',Collection settlement,'))).toBe(true);

  await page.goto(FILTER);
  await exportFromList(page, 'Excel');
  await page.goto('/lineExport');
  const xlsx = await downloadNewest(page, 'xlsx');
  const sheets = await readXlsxFile(xlsx);
  expect(sheets[0]!.data[0]![0]).toBe('Transaction number');
  expect(sheets.reduce((n, s) => n + s.data.length - 1, 0)).toBe(expected);
  expect(typeof sheets[0]!.data[1]![3]).toBe('number');
  await page.reload();
  await expect(page.locator('.data-table tbody tr.data-table__row:visible').first()).toContainText(
    'Export successful',
  );
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/exports-page-en.png`, fullPage: true });
});

test('the Exports page and the Export button in Chinese', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await logIn(page, DEMO.ROOT, { language: 'zh-cn' });
  await page.goto('/collection/payments');
  await expect(page.getByTestId('export-button')).toContainText('导出');
  await page.getByTestId('export-button').click();
  await expect(page.getByRole('menuitem', { name: /Excel/ })).toBeVisible();
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/payments-export-menu-zh-cn.png`, fullPage: true });
  await page.getByRole('menuitem', { name: /Excel/ }).click();
  await expect(page.getByTestId('export-created')).toContainText('已按当前筛选条件开始导出');
  await page.getByRole('link', { name: '前往离线导出查看' }).click();
  await expect(page.locator('.app-main').getByRole('heading', { name: '离线导出' })).toBeVisible();
  const row = page.locator('.data-table tbody tr.data-table__row:visible').first();
  await expect(row).toContainText('代收交易');
  await expect(row).toContainText('导出成功', { timeout: 30_000 });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/exports-page-zh-cn.png`, fullPage: true });
});
