import { configure, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MerchantLimits } from '@paydesk/shared/limits/limits.schemas.ts';
import type { PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { SANDBOX_CN } from '../../../test/payouts.ts';
import { errorUnder } from '../../../test/antd.ts';
import { renderRoute, typist } from '../../../test/render.tsx';
import { apiError, http, json, noLimits, server, signInAs } from '../../../test/server.ts';
import PayoutApplyPage from './payout-apply-page.tsx';

// The limits an operator set (DESIGN 14) on the Send money form: shown before submit, an amount past one
// refused under the amount with nothing sent, and the server's limit_exceeded shown there too.

configure({ asyncUtilTimeout: 10_000 });

const CHANNEL: PayoutChannel = { ...SANDBOX_CN, banks: [{ code: 'CMB', name: 'China Merchants Bank' }] };

const LIMITS = noLimits('payout', {
  per_order_min: '20.00',
  per_order_max: '3000.00',
  daily_amount: '10000.00',
  daily_count: 10,
  used_amount: '8500.00',
  used_count: 4,
  remaining_amount: '1500.00',
  remaining_count: 6,
});

let limits: MerchantLimits;
let posts: unknown[];
let asked: string[];

beforeEach(async () => {
  await changeLanguage('en');
  limits = LIMITS;
  posts = [];
  asked = [];
  signInAs({ perms: ['payout:view', 'payout:create'] });
  server.use(
    http.get('/api/merchant/payout-channels', () =>
      json({ data: { channels: [CHANNEL], available: '20000.00', currency: 'CNY' } }),
    ),
    http.get('/api/merchant/limits', ({ request }) => {
      asked.push(new URL(request.url).search);
      return json({ data: limits });
    }),
    http.post('/api/merchant/payouts', async ({ request }) => {
      posts.push(await request.json());
      return apiError(422, 'limit_exceeded', "This payout would pass today's limit.");
    }),
  );
});

const renderPage = () => renderRoute(PayoutApplyPage, { path: '/behalfPay/apply' });

async function typeAmount(value: string) {
  const amount = await screen.findByLabelText('Amount');
  await typist().clear(amount);
  await typist().type(amount, value);
  await typist().tab();
}

describe('Send money under limits', { timeout: 60_000 }, () => {
  it('shows the limits per order and what is left today before submit', async () => {
    renderPage();
    const line = await screen.findByTestId('payout-limits');
    expect(line.textContent).toContain('20.00 to 3,000.00 Yuan per order');
    expect(line.textContent).toContain('1,500.00 Yuan left today (of 10,000.00)');
    expect(line.textContent).toContain('Payouts left today: 6 of 10');
    expect(asked).toContain('?kind=payout');
  });

  it('refuses an amount past a limit under the amount, and sends nothing', async () => {
    renderPage();
    await screen.findByTestId('payout-limits');
    await typeAmount('19.99');
    await waitFor(() =>
      expect(errorUnder('Amount')).toBe('The amount is below your minimum of 20.00 Yuan per payout.'),
    );
    await typeAmount('3000.01');
    await waitFor(() =>
      expect(errorUnder('Amount')).toBe('The amount is above your maximum of 3,000.00 Yuan per payout.'),
    );
    await typeAmount('1500.01');
    await waitFor(() =>
      expect(errorUnder('Amount')).toBe("This passes today's limit: 1,500.00 Yuan left today."),
    );
    await typeAmount('1500.00');
    await waitFor(() => expect(errorUnder('Amount')).toBeFalsy());
    await typist().click(screen.getByRole('button', { name: /Pay$/ }));
    expect(posts).toEqual([]);
  });

  it('says the day’s count is used up, in Chinese too', async () => {
    limits = { ...LIMITS, used_count: 10, remaining_count: 0 };
    renderPage();
    await screen.findByTestId('payout-limits');
    await typeAmount('100.00');
    await waitFor(() => expect(errorUnder('Amount')).toBe("Today's limit of 10 is reached."));
    await changeLanguage('zh-cn');
    expect((await screen.findByTestId('payout-limits')).textContent).toContain('今日剩余代付笔数：0 / 10');
  });

  it('shows no limits line for a merchant without limits', async () => {
    limits = noLimits('payout');
    renderPage();
    await screen.findByLabelText('Amount');
    await waitFor(() => expect(asked).toEqual(['?kind=payout']));
    expect(screen.queryByTestId('payout-limits')).toBeNull();
  });
});
