import { createUser, enableStepUp, expect, logIn, mailedLink, test } from './fixtures.ts';

// Settings > Team end to end (DESIGN 16): a ROOT user invites a colleague from the console behind the
// payment password and a Google code; the invitation mail lands in DATA_DIR/mail as an .eml file (no
// SMTP_URL); the colleague opens its link in another browser, sets a name and a password, and is signed in.

const PAYMENT_PASSWORD = 'pay-24680';
const INVITATION_LINK = /https?:\/\/[^\s"<>]+\/invite\/[A-Za-z0-9_-]+/;

test('a ROOT user invites a colleague, who sets a password from the mailed link and signs in', async ({
  page,
  browser,
}) => {
  const rootEmail = await createUser('M100001', 'ROOT', 'team-root');
  await logIn(page, rootEmail, { language: 'zh-cn', mode: null });
  const nextCode = await enableStepUp(page, PAYMENT_PASSWORD);

  await page.goto('/setting/team');
  const table = page.getByRole('table', { name: '用户' });
  await expect(table.getByText(rootEmail)).toBeVisible();
  await page.getByRole('button', { name: /邀请用户/ }).click();
  const dialog = page.getByRole('dialog', { name: '邀请用户' });
  const colleague = `colleague-${Date.now()}@demo.paydesk.test`;
  await dialog.getByLabel('邮箱').fill(colleague);
  await dialog.getByLabel('角色').click();
  // antd's options are drawn in a list of its own, outside the dialog.
  await page.locator('.ant-select-item-option', { hasText: /^OPERATOR/ }).click();
  await dialog.getByLabel('支付密码').fill(PAYMENT_PASSWORD);
  await dialog.getByLabel('谷歌验证码').fill(await nextCode());
  await dialog.getByRole('button', { name: '发送邀请' }).click();
  await expect(dialog).toBeHidden();
  const row = table.locator('tr', { hasText: colleague });
  await expect(row).toContainText('已邀请');
  await expect(row).toContainText('OPERATOR');

  const link = await mailedLink(colleague, INVITATION_LINK);
  const other = await browser.newContext();
  const colleaguePage = await other.newPage();
  await colleaguePage.goto(link.pathname);
  await expect(colleaguePage.getByTestId('invitation-summary')).toContainText('OPERATOR');
  await expect(colleaguePage.locator('input#email')).toHaveValue(colleague);
  await colleaguePage.locator('input#name').fill('Colleague E2E');
  await colleaguePage.locator('input#password').fill('colleague-pass-1');
  await colleaguePage.locator('input#password_confirmation').fill('colleague-pass-1');
  await colleaguePage.locator('button[type=submit]').click();
  await expect(colleaguePage).toHaveURL(/\/dashboard$/);

  // The link works once: opened again, it says so.
  const again = await other.newPage();
  await again.goto(link.pathname);
  await expect(again.getByRole('alert')).toBeVisible();
  await other.close();

  await page.reload();
  await expect(table.locator('tr', { hasText: colleague })).toContainText('正常');
});
