import type { Page } from '@playwright/test';
import { DEMO, expect, logIn, runOps, test } from './fixtures.ts';

// An operator moves money with the ops command line (against the running server, found in its DATA_DIR);
// the merchant's finance user sees it on the Dashboard and on Funds > Transactions, in Chinese.

type OpsEntry = { id: number; amount: string; available_after: string; ref_no: string; created_at: string };
type OpsResult = {
  entry: OpsEntry;
  freeze_id?: number;
  balance: { total: string; available: string; locked: string; currency: string };
};

const ops = (...args: string[]) => runOps<OpsResult>(...args);

/** "167134.91" -> "167,134.91". */
const grouped = (decimal: string) => {
  const [whole, fraction] = decimal.split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
};

/** "2026-11-21 20:15:03" of an ISO instant in Shanghai (the browser's zone in these tests). */
const shanghaiTime = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

async function search(page: Page) {
  await page.getByRole('button', { name: /搜\s*索/ }).click();
}

test('money moved with the ops command line shows on the Dashboard and Funds > Transactions (zh-cn)', async ({
  page,
}) => {
  const moved = await ops(
    'funds:transfer-in',
    '--merchant',
    'M100001',
    '--amount',
    '12345.67',
    '--reason',
    'e2e: wire received',
    '--note',
    'E2E deposit',
    '--operator',
    'E2E operator',
  );
  const frozen = await ops(
    'funds:freeze',
    '--merchant',
    'M100001',
    '--amount',
    '250.00',
    '--reason',
    'e2e: dispute',
  );
  const { balance } = frozen;

  // ops moves live money (its default mode).
  await logIn(page, DEMO.FINANCE, { language: 'zh-cn', mode: 'live' });
  const cards = page.getByTestId('funds-cards');
  await expect(cards.getByTestId('funds-total')).toContainText('总资金');
  await expect(cards.getByTestId('funds-total')).toContainText(grouped(balance.total));
  await expect(cards.getByTestId('funds-available')).toContainText('可用资金');
  await expect(cards.getByTestId('funds-available')).toContainText(grouped(balance.available));
  await expect(cards.getByTestId('funds-locked')).toContainText('锁定资金');
  await expect(cards.getByTestId('funds-locked')).toContainText(grouped(balance.locked));
  await expect(cards).toContainText('元');

  await page.goto('/fund/fundWater');
  await expect(page.locator('.app-main').getByRole('heading', { name: '资金流水' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '交易类型' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '交易后余额' })).toBeVisible();

  // Newest first: the freeze, then the transfer in, each with its sign, currency, grouping and local time.
  await expect(rows(page).nth(0)).toContainText('资金冻结');
  await expect(rows(page).nth(0)).toContainText('-250.00 元');
  const transferRow = rows(page).nth(1);
  await expect(transferRow).toContainText('资金转入');
  await expect(transferRow).toContainText('+12,345.67 元');
  await expect(transferRow).toContainText(`${grouped(moved.entry.available_after)} 元`);
  await expect(transferRow).toContainText('E2E deposit');
  await expect(transferRow).toContainText(moved.entry.ref_no);
  await expect(transferRow).toContainText(shanghaiTime(moved.entry.created_at));
  await expect(page.getByTestId('fund-flow-sums')).toContainText('收入');

  // One entry's detail.
  await transferRow.getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(`交易 ${moved.entry.id}`);
  await expect(drawer).toContainText('平台运营');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // Filter by type: only transfers out, and the sums of that filter.
  await page.getByRole('combobox', { name: '交易类型' }).click();
  await page.locator('.ant-select-item-option', { hasText: '资金转出' }).click();
  await search(page);
  await expect(page).toHaveURL(/type=transfer_out/);
  await expect(rows(page).first()).toContainText('资金转出');
  const types = await rows(page).locator('.ant-tag').allTextContents();
  expect(new Set(types)).toEqual(new Set(['资金转出']));
  // The demo history's transfers out, for the whole filter (not just this page).
  await expect(page.getByTestId('fund-flow-sums')).toContainText('收入: 0.00 元');
  await expect(page.getByTestId('fund-flow-sums')).toContainText('支出: -17,230.75 元');

  // By reference number: exactly the transfer in.
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(page).not.toHaveURL(/type=/);
  await expect(rows(page).first()).toContainText('资金冻结');
  await page.getByRole('textbox', { name: '关联单号' }).fill(moved.entry.ref_no);
  await search(page);
  await expect(page).toHaveURL(new RegExp(`ref_no=${moved.entry.ref_no}`));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('+12,345.67 元');
  await expect(page.getByTestId('fund-flow-sums')).toContainText('交易笔数: 1');

  // Nothing matches: the empty state says so.
  await page.getByRole('textbox', { name: '关联单号' }).fill('NO-SUCH-REF');
  await search(page);
  await expect(page.getByText('没有符合筛选条件的交易。')).toBeVisible();

  // Paging: the demo history and today's entries fill more than one page of 20; page 2 goes by cursor.
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(page).not.toHaveURL(/ref_no=/);
  await expect(rows(page)).toHaveCount(20);
  const firstOfPage1 = (await rows(page).first().textContent()) ?? '';
  const lastOfPage1 = (await rows(page).last().textContent()) ?? '';
  await page.locator('.ant-pagination-item-2').click();
  await expect(page).toHaveURL(/page=2.*cursor=|cursor=.*page=2/);
  await expect(rows(page).first()).not.toHaveText(firstOfPage1);
  await expect(rows(page).first()).not.toHaveText(lastOfPage1);
  const firstOfPage2 = (await rows(page).first().textContent()) ?? '';
  // Newest first: page 2 starts no later than page 1 ended.
  const timeOf = (text: string) => /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.exec(text)?.[0] ?? '';
  expect(timeOf(firstOfPage2) <= timeOf(lastOfPage1)).toBe(true);
  await page.reload();
  await expect(rows(page).first()).toHaveText(firstOfPage2);
});

test('a user without funds:view sees no funds cards', async ({ page }) => {
  await logIn(page, DEMO.OPERATOR);
  await expect(page.locator('.app-main').getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('funds-cards')).toHaveCount(0);
});
