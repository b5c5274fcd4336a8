import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { DEMO, expect, logIn, runOps, test } from './fixtures.ts';

// Receive money end to end, in Chinese: an order created through the signed gateway (by ops demo:traffic,
// with the demo merchant's own key) is paid on the hosted sandbox page, the merchant's server receives the
// signed callback, and the console shows the order paid with its callback delivered.

let receiver: Server;
const received: { id: string; body: string }[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), body });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const rows = (page: Page) => page.locator('.data-table tbody tr.data-table__row:visible');

test('an order created through the gateway is paid on the sandbox page and shows paid with its callback (zh-cn)', async ({
  page,
  browser,
}) => {
  const notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paydesk/notify`;

  // The merchant sets its default notify URL in Settings > Access key.
  await logIn(page, DEMO.ROOT, { language: 'zh-cn' });
  await page.goto('/setting/interfaceKey');
  const notifyForm = page.locator('form[id="notify-url"]');
  await notifyForm.getByPlaceholder('https://您的服务器/paydesk/notify').fill(notifyUrl);
  await notifyForm.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('回调地址已保存')).toBeVisible();

  // Its server creates a collection through the signed gateway, on the manual sandbox channel.
  const traffic = await runOps<{ trade_nos: string[] }>(
    'demo:traffic',
    '--merchant',
    'M100001',
    '--rate',
    '1',
    '--duration',
    '1',
    '--channel',
    'sandbox',
  );
  const [tradeNo] = traffic.trade_nos;
  expect(tradeNo).toMatch(/^C\d{23}$/);

  // The payer pays on the hosted test checkout page (a browser in Chinese).
  const payer = await browser.newContext({ locale: 'zh-CN' });
  const payPage = await payer.newPage();
  await payPage.goto(`/sandbox/pay/${tradeNo}`);
  await expect(payPage.getByText(tradeNo)).toBeVisible();
  await expect(payPage.getByText('剩余支付时间')).toBeVisible();
  await payPage.getByRole('button', { name: '支付', exact: true }).click();
  await expect(payPage.getByRole('heading', { name: '支付成功' })).toBeVisible();
  await payer.close();

  // The merchant's server gets the signed callback (the worker delivers it within a few seconds).
  await expect.poll(() => received.find((r) => r.body.includes(tradeNo)), { timeout: 30_000 }).toBeTruthy();
  const callback = received.find((r) => r.body.includes(tradeNo))!;
  expect(JSON.parse(callback.body)).toMatchObject({
    type: 'collection.paid',
    data: { trade_no: tradeNo, status: 'paid' },
  });

  // The console shows it paid, with the callback delivered.
  await page.goto(`/collection/payments?trade_no=${tradeNo}`);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('已支付');
  await rows(page).first().getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('collection-timeline')).toContainText('回调已送达');
  const callbacks = drawer.getByTestId('collection-callbacks');
  await expect(callbacks).toContainText('订单已支付');
  await expect(callbacks).toContainText('已送达');
  await expect(callbacks).toContainText('200');

  // Its attempt on the channel: the sandbox's reference, succeeded.
  const attempts = drawer.getByTestId('collection-attempts');
  await expect(attempts).toContainText('通道尝试');
  await expect(attempts).toContainText(/SBX\d{16}/);
  await expect(attempts).toContainText('成功');
  await attempts.scrollIntoViewIfNeeded();
  await drawer.screenshot({ path: test.info().outputPath('collection-drawer-attempts-zh-cn.png') });
});

test("a payout's drawer shows its attempt on the channel (en)", async ({ page }) => {
  await logIn(page, DEMO.ROOT, { language: 'en' });
  await page.goto('/behalfPay/transfers?status=success');
  await rows(page).first().getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog');
  const attempts = drawer.getByTestId('payout-attempts');
  await expect(attempts).toContainText('Channel attempts');
  await expect(attempts).toContainText('Succeeded');
  await attempts.scrollIntoViewIfNeeded();
  await drawer.screenshot({ path: test.info().outputPath('payout-drawer-attempts-en.png') });
});
