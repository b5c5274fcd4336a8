import type { Page } from '@playwright/test';
import { chooseBank, confirmPayout, createUser, enableStepUp, expect, logIn, test } from './fixtures.ts';

// Send money from the console, one journey per payout form variant (DESIGN section 4): China in Chinese,
// India in English, Brazil in Vietnamese. Each user is new (made with ops user:create), turns two-factor on
// and sets a payment password, fills its country's form, confirms, and follows the payout in the history
// while the sandbox channel finishes it (an account ending in 0000 fails there).

const PAYMENT_PASSWORD = 'pay-13579';

type Texts = {
  language: 'en' | 'zh-cn' | 'vi';
  pay: RegExp;
  paymentPassword: string;
  code: string;
  confirmTitle: string;
  confirmOk: string;
};

const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

/** Signs the new user in, turns the step-up on, opens Send money; the phone's next codes. */
async function openSendMoney(page: Page, merchant: string, texts: Texts) {
  const email = await createUser(merchant, 'ROOT', `payout-${texts.language}`);
  // Paid on the sandbox channel, in test mode (logIn's default).
  await logIn(page, email, { language: texts.language });
  const nextCode = await enableStepUp(page, PAYMENT_PASSWORD);
  await page.goto('/behalfPay/apply');
  return nextCode;
}

/** Fills the step-up, pays, confirms; the new payout's number, from the history page it lands on. */
async function payAndConfirm(page: Page, texts: Texts, nextCode: () => Promise<string>) {
  await page.getByLabel(texts.paymentPassword).fill(PAYMENT_PASSWORD);
  await page.getByLabel(texts.code).fill(await nextCode());
  await page.getByRole('button', { name: texts.pay }).click();
  return confirmPayout(page, texts.confirmTitle, texts.confirmOk);
}

/**
 * The history row of the payout, once the sandbox channel has finished it (the list does not refresh by
 * itself: reloaded until then). Each look waits for the page as long as a busy machine needs.
 */
async function finalRow(page: Page, tradeNo: string, status: string) {
  await expect(async () => {
    await page.reload();
    await expect(rows(page).filter({ hasText: tradeNo })).toContainText(status, { timeout: 15_000 });
  }).toPass({ timeout: 150_000 });
  return rows(page).filter({ hasText: tradeNo });
}

test('China (zh-cn): bank from the list, bank name, account; paid, and the deduction is in Funds > Transactions', async ({
  page,
}) => {
  const texts: Texts = {
    language: 'zh-cn',
    pay: /支\s*付$/,
    paymentPassword: '支付密码',
    code: '谷歌验证码',
    confirmTitle: '确认信息无误并支付',
    confirmOk: '确认支付',
  };
  const nextCode = await openSendMoney(page, 'M100001', texts);
  await expect(page.getByLabel('IFSC 代码')).toHaveCount(0);
  await chooseBank(page, '银行', '招商银行');
  await page.getByLabel('开户行名称').fill('招商银行');
  await page.getByLabel('支行名称').fill('深圳分行');
  await page.getByLabel('收款人').fill('张三');
  await page.getByLabel('收款账号').fill('6222020200112233');
  await page.getByLabel('金额', { exact: true }).fill('88.00');
  // 0.8% + 1.00: 0.70 + 1.00 = 1.70 of fee, 89.70 deducted, shown before sending.
  await expect(page.locator('form')).toContainText('89.70');
  const tradeNo = await payAndConfirm(page, texts, nextCode);

  const row = await finalRow(page, tradeNo, '成功');
  await expect(row).toContainText('88.00');
  await expect(row).toContainText('************2233');

  await page.goto(`/fund/fundWater`);
  await expect(rows(page).filter({ hasText: tradeNo }).first()).toContainText('-89.70');
});

test('India (en): the IFSC names its bank, no bank list; paid', async ({ page }) => {
  const texts: Texts = {
    language: 'en',
    pay: /Pay$/,
    paymentPassword: 'Payment password',
    code: 'Google code',
    confirmTitle: 'Confirm information is correct and pay',
    confirmOk: 'Confirm and pay',
  };
  const nextCode = await openSendMoney(page, 'M100002', texts);
  await expect(page.getByRole('combobox', { name: 'Bank' })).toHaveCount(0);
  const ifsc = page.getByLabel('IFSC code');
  await ifsc.fill('zzzz0001234');
  await page.getByLabel('Payee').click();
  await expect(page.getByText('ZZZZ is not the code of a known bank: check the IFSC')).toBeVisible();
  await ifsc.fill('hdfc0001234');
  await expect(ifsc).toHaveValue('HDFC0001234');
  await page.getByLabel('Payee').fill('Asha Rao');
  await page.getByLabel('Receiving account').fill('50100123456789');
  await page.getByLabel('Amount', { exact: true }).fill('250');
  const tradeNo = await payAndConfirm(page, texts, nextCode);

  const row = await finalRow(page, tradeNo, 'Success');
  await expect(row).toContainText('250.00 INR');
  await expect(row).toContainText('Asha Rao');
});

test('Brazil (vi): a company pays to its CNPJ with check digits; the sandbox fails the account ending 0000', async ({
  page,
}) => {
  const texts: Texts = {
    language: 'vi',
    pay: /Thanh toán$/,
    paymentPassword: 'Mật khẩu thanh toán',
    code: 'Mã Google',
    confirmTitle: 'Xác nhận thông tin chính xác và thanh toán',
    confirmOk: 'Xác nhận và thanh toán',
  };
  const nextCode = await openSendMoney(page, 'M100003', texts);
  await page.getByRole('radio', { name: 'Doanh nghiệp' }).check();
  await chooseBank(page, 'Ngân hàng', 'Banco do Brasil');
  const cnpj = page.getByLabel('Số CNPJ');
  await cnpj.fill('12.345.678/0001-96');
  await page.getByLabel('Người nhận').click();
  await expect(
    page.getByText('Vui lòng nhập số CNPJ hợp lệ (14 chữ số, chữ số kiểm tra đúng)'),
  ).toBeVisible();
  await cnpj.fill('12.345.678/0001-95');
  await page.getByLabel('Người nhận').fill('Acme Comércio Ltda');
  await page.getByLabel('Tài khoản nhận').fill('98760000');
  await page.getByLabel('Số tiền', { exact: true }).fill('150.00');
  const tradeNo = await payAndConfirm(page, texts, nextCode);

  const row = await finalRow(page, tradeNo, 'Thất bại');
  await expect(row).toContainText('150.00 BRL');
  await expect(row).toContainText('****0000');
});
