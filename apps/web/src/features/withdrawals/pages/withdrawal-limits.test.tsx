import { configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { errorUnder } from '../../../test/antd.ts';
import { renderRoute, typist } from '../../../test/render.tsx';
import { TRON, withdrawalOptions } from '../../../test/withdrawals.ts';
import { apiError, http, json, noLimits, server, signInAs } from '../../../test/server.ts';
import WithdrawalApplyPage from './withdrawal-apply-page.tsx';

// The limits an operator set on withdrawals (DESIGN 14, USDT amounts): shown on the form, an amount past
// one refused before submit with nothing sent, and the server's refusals (limit_exceeded, blocked) shown
// under the field they are about.

configure({ asyncUtilTimeout: 10_000 });

const OPTIONS = withdrawalOptions({ available: '100000.00' });
const LIMITS = noLimits('withdrawal', {
  per_order_max: '5000.000000',
  daily_amount: '8000.000000',
  used_amount: '7000.000000',
  used_count: 2,
  remaining_amount: '1000.000000',
});

let posts: unknown[];
let answer: () => Response;

beforeEach(async () => {
  await changeLanguage('en');
  posts = [];
  answer = () => apiError(422, 'blocked', 'This wallet address is on the block list.');
  signInAs({ perms: ['withdrawal:view', 'withdrawal:create'] });
  server.use(
    http.get('/api/merchant/withdrawal-options', () => json({ data: OPTIONS })),
    http.get('/api/merchant/limits', () => json({ data: LIMITS })),
    http.post('/api/merchant/withdrawals', async ({ request }) => {
      posts.push(await request.json());
      return answer();
    }),
  );
});

const renderPage = () => renderRoute(WithdrawalApplyPage, { path: '/withdrawal/apply' });

async function fill(amount: string) {
  const u = typist();
  await u.type(await screen.findByLabelText('Wallet address'), TRON);
  await u.type(screen.getByLabelText('Amount'), amount);
  await u.type(screen.getByLabelText('Payment password'), 'pay-123456');
  await u.type(screen.getByLabelText('Google code'), '123456');
}

async function sendConfirmed() {
  await typist().click(screen.getByRole('button', { name: /Withdraw$/ }));
  const heading = await screen.findByText('Confirm the withdrawal', { selector: '.ant-modal-title' });
  await typist().click(
    within(heading.closest('[role=dialog]') as HTMLElement).getByRole('button', {
      name: /Confirm and withdraw$/,
    }),
  );
}

describe('Withdraw under limits', { timeout: 60_000 }, () => {
  it('shows the USDT limits and refuses past what is left today, sending nothing', async () => {
    renderPage();
    const line = await screen.findByTestId('withdrawal-limits');
    expect(line.textContent).toContain('At most 5,000.00 USDT per order');
    expect(line.textContent).toContain('1,000.00 USDT left today (of 8,000.00)');
    await fill('1000.5');
    await typist().click(screen.getByRole('button', { name: /Withdraw$/ }));
    await waitFor(() =>
      expect(errorUnder('Amount')).toBe("This passes today's limit: 1,000.00 USDT left today."),
    );
    expect(posts).toEqual([]);
  });

  it("shows the server's refusals under the field they are about", async () => {
    renderPage();
    await fill('100');
    await sendConfirmed();
    await waitFor(() => expect(posts).toHaveLength(1));
    await waitFor(() =>
      expect(errorUnder('Wallet address')).toBe(
        "This payee, wallet or payer is on your account's block list; nothing was sent.",
      ),
    );
    answer = () => apiError(422, 'limit_exceeded', 'Over the limit.');
    await sendConfirmed();
    await waitFor(() => expect(posts).toHaveLength(2));
    await waitFor(() =>
      expect(errorUnder('Amount')).toBe('This is over a limit set for your account; nothing was sent.'),
    );
  });
});
