import type { Page } from '@playwright/test';
import {
  chooseBank,
  confirmPayout,
  createUser,
  enableStepUp,
  expect,
  logIn,
  mailedLink,
  switchMode,
  test,
} from './fixtures.ts';

// Issue 38's "done when" as one journey (DESIGN 16), as a new user would try it: a ROOT user sets a payout
// approval threshold and invites a colleague; the colleague opens the invitation from the .eml file the
// server wrote to DATA_DIR/mail, sets a password, binds an authenticator, signs in with a code and sends a
// payout over the threshold, which waits; the ROOT user opens the mail about it, follows its link to the
// payout and approves it. The ROOT user's bell shows each step. VND (M100004) in test mode: no other spec
// sends money there, so the threshold changes no one else's payout.

const ROOT_PAYMENT_PASSWORD = 'pay-97531';
const COLLEAGUE_PASSWORD = 'colleague-pass-38';
const COLLEAGUE_PAYMENT_PASSWORD = 'pay-86420';
const INVITATION_LINK = /https?:\/\/[^\s"<>]+\/invite\/[A-Za-z0-9_-]+/;

/** The bell's items, opened afresh after a reload (the badge polls; a reload reads it now). */
async function openBell(page: Page) {
  await page.reload();
  await page.getByTestId('notification-bell').click();
  const list = page.getByTestId('notification-list');
  await expect(list).toBeVisible();
  return list.getByTestId('notification-item');
}

test('ROOT sets a threshold and invites a colleague, whose payout over it waits until ROOT approves it; the bell tells each step', async ({
  page,
  browser,
}) => {
  const rootEmail = await createUser('M100004', 'ROOT', 'approval-root');
  await logIn(page, rootEmail, { mode: 'test' });
  const rootCode = await enableStepUp(page, ROOT_PAYMENT_PASSWORD);

  // Settings > Payout approval: console payouts of 1,000,000 VND or more wait (test mode's threshold).
  await page.goto('/setting/payoutApproval');
  const settings = page.getByRole('form', { name: 'Payout approval' });
  await expect(page.getByText(/these are for test mode/)).toBeVisible();
  await settings.getByLabel('Console payouts from').fill('1000000');
  await settings.getByLabel('Payment password').fill(ROOT_PAYMENT_PASSWORD);
  await settings.getByLabel('Google code').fill(await rootCode());
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payout approval saved')).toBeVisible();

  // Settings > Team: the colleague is invited as an operator (who may send money).
  await page.goto('/setting/team');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  const colleague = `approval-maker-${Date.now()}@demo.paydesk.test`;
  await invite.getByLabel('Email').fill(colleague);
  await invite.getByLabel('Role').click();
  await page.locator('.ant-select-item-option', { hasText: /^OPERATOR/ }).click();
  await invite.getByLabel('Payment password').fill(ROOT_PAYMENT_PASSWORD);
  await invite.getByLabel('Google code').fill(await rootCode());
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();

  // The bell: the invitation, unread.
  const invited = (await openBell(page)).filter({ hasText: 'User invited' });
  await expect(invited).toHaveCount(1);
  await expect(invited).toContainText(`invited ${colleague} as OPERATOR`);
  await expect(invited).toHaveAttribute('data-unread', 'true');

  // The colleague, in a browser of their own, opens the mailed link and sets a password.
  const other = await browser.newContext();
  // A browser the console has not seen opens in its default language (Chinese): this colleague reads English.
  await other.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  const maker = await other.newPage();
  const link = await mailedLink(colleague, INVITATION_LINK);
  await maker.goto(link.pathname);
  await expect(maker.getByTestId('invitation-summary')).toContainText('OPERATOR');
  await maker.locator('input#name').fill('Approval Maker');
  await maker.locator('input#password').fill(COLLEAGUE_PASSWORD);
  await maker.locator('input#password_confirmation').fill(COLLEAGUE_PASSWORD);
  await maker.locator('button[type=submit]').click();
  await expect(maker).toHaveURL(/\/dashboard$/);

  // Money needs both factors: an authenticator and a payment password; then a sign-in with a code.
  const makerCode = await enableStepUp(maker, COLLEAGUE_PAYMENT_PASSWORD, { password: COLLEAGUE_PASSWORD });
  await maker.getByTestId('user-menu').click();
  await maker.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(maker).toHaveURL(/\/login/);
  await maker.locator('input#username').fill(colleague);
  await maker.locator('input#password').fill(COLLEAGUE_PASSWORD);
  await maker.locator('button[type=submit]').click();
  await maker.getByLabel('Authentication code').fill(await makerCode());
  await maker.getByRole('button', { name: 'Verify' }).click();
  await expect(maker).toHaveURL(/\/dashboard$/);
  await switchMode(maker, 'test');

  // Send money: 2,000,000 VND, over the threshold.
  await maker.goto('/behalfPay/apply');
  await chooseBank(maker, 'Bank', 'ACB');
  await maker.getByLabel('Payee').fill('Nguyen Van An');
  await maker.getByLabel('Receiving account').fill('19034567890123');
  await maker.getByLabel('Amount', { exact: true }).fill('2000000');
  await maker.getByLabel('Payment password').fill(COLLEAGUE_PAYMENT_PASSWORD);
  await maker.getByLabel('Google code').fill(await makerCode());
  await maker.getByRole('button', { name: /Pay$/ }).click();
  const tradeNo = await confirmPayout(maker, 'Confirm information is correct and pay', 'Confirm and pay');
  await expect(maker.getByText(`Payout ${tradeNo} waits for approval`)).toBeVisible();
  const makerRow = maker.locator('.data-table tbody tr.data-table__row:visible', { hasText: tradeNo });
  await expect(makerRow).toContainText('Pending approval');
  await expect(makerRow).toContainText('2,000,000');
  // Its maker (an operator, who may not approve) reads that it waits, with no Approve in its drawer.
  await makerRow.getByRole('button', { name: 'Details' }).click();
  const makerDrawer = maker.getByRole('dialog', { name: `Payout ${tradeNo}` });
  await expect(makerDrawer.getByTestId('payout-approval')).toContainText(
    "waits for a second user's approval",
  );
  await expect(makerDrawer.getByTestId('payout-approval')).toContainText('Approval Maker');
  await expect(makerDrawer.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The bell: the payout waits, by whom and how much.
  const waiting = (await openBell(page)).filter({ hasText: 'Payout waiting for approval' });
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText(`Approval Maker created payout ${tradeNo} of 2,000,000 VND`);
  await expect((await openBell(page)).filter({ hasText: 'User invited' })).toHaveCount(1);

  // The mail about it links to the payout in Send money history, on the address the colleague used.
  const review = await mailedLink(
    rootEmail,
    new RegExp(`https?://[^\\s"<>]+/behalfPay/transfers\\?trade_no=${tradeNo}`),
  );
  expect(review.origin).toBe(new URL(page.url()).origin);
  await page.goto(`${review.pathname}${review.search}`);
  const row = page.locator('.data-table tbody tr.data-table__row:visible', { hasText: tradeNo });
  await expect(row).toContainText('Pending approval');
  await row.getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog', { name: `Payout ${tradeNo}` });
  await expect(drawer.getByTestId('payout-approval')).toContainText('Approval Maker');
  await drawer.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: `Approve payout ${tradeNo}` });
  await approve.getByLabel('Payment password').fill(ROOT_PAYMENT_PASSWORD);
  await approve.getByLabel('Google code').fill(await rootCode());
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`Payout ${tradeNo} approved: it is on its way to the channel.`)).toBeVisible();
  await expect(drawer.getByTestId('payout-approval')).toContainText('Approved by');
  await expect(drawer.getByTestId('payout-approval')).toContainText('E2E approval-root');

  // The maker sees it leave Pending approval.
  await expect(async () => {
    await maker.reload();
    await expect(makerRow).not.toContainText('Pending approval', { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  await other.close();
});
