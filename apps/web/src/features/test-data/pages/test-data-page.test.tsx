import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDataDeletion } from '@paydesk/shared/modes/modes.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { currentMode, setMode } from '../../../stores/mode.ts';
import { renderRoute } from '../../../test/render.tsx';
import {
  apiError,
  type Call,
  fieldError,
  http,
  json,
  recordCalls,
  server,
  signInAs,
} from '../../../test/server.ts';
import TestDataPage from './test-data-page.tsx';

// Settings > Test data (DESIGN 12): add test funds in test mode, delete all test data
// (a confirmation, then a job polled until idle; 409 test_data_busy under the button).

configure({ asyncUtilTimeout: 10_000 });

let balance: { total: string; available: string; locked: string; currency: 'CNY' };
let deletion: TestDataDeletion;
let calls: Call[];
const modes: (string | null)[] = [];

beforeEach(async () => {
  await changeLanguage('en');
  balance = { total: '10000.00', available: '9000.00', locked: '1000.00', currency: 'CNY' };
  deletion = { status: 'idle', requested_at: null, finished_at: null };
  modes.length = 0;
  signInAs({ perms: ['test-data:manage'] });
  server.use(
    http.get('/api/merchant/balance', ({ request }) => {
      modes.push(request.headers.get('x-mode'));
      return json({ data: balance });
    }),
    http.get('/api/merchant/test-data/delete', () => json({ data: deletion })),
  );
  calls = recordCalls();
});

const u = () => userEvent.setup({ delay: null });
const posts = () => calls.filter((call) => call.method === 'POST').map(({ url, body }) => ({ url, body }));

describe('Settings > Test data', { timeout: 60_000 }, () => {
  it('shows the test balance and adds test funds, then the new balance', async () => {
    setMode('test');
    server.use(
      http.post('/api/merchant/test-funds', async ({ request }) => {
        const { amount } = (await request.json()) as { amount: string };
        balance = {
          ...balance,
          available: `${9000 + Number(amount)}.00`,
          total: `${10000 + Number(amount)}.00`,
        };
        return json({ data: { currency: 'CNY', available: balance.available, locked: balance.locked } });
      }),
    );
    renderRoute(TestDataPage);
    const card = await screen.findByTestId('test-funds');
    expect(await within(card).findByText('9,000.00')).toBeInTheDocument();
    expect(modes[0]).toBe('test');

    await u().type(within(card).getByLabelText('Amount'), '500');
    await u().click(within(card).getByRole('button', { name: /Add test funds/ }));
    expect(await screen.findByText('Test funds added. Test balance available: 9,500.00')).toBeInTheDocument();
    expect(await within(card).findByText('9,500.00')).toBeInTheDocument();
    expect(posts()).toEqual([{ url: '/api/merchant/test-funds', body: { amount: '500' } }]);
  });

  it('refuses an empty, zero or too large amount before sending, and shows the server’s refusal under it', async () => {
    setMode('test');
    server.use(
      http.post('/api/merchant/test-funds', () =>
        fieldError('amount', 'validation_failed', 'The amount must be at most 1000000.00.'),
      ),
    );
    renderRoute(TestDataPage);
    const card = await screen.findByTestId('test-funds');
    const amount = within(card).getByLabelText('Amount');
    const submit = within(card).getByRole('button', { name: /Add test funds/ });
    await u().click(submit);
    expect(await within(card).findByText('Enter an amount greater than 0.')).toBeInTheDocument();
    await u().type(amount, '1000000.01');
    await u().click(submit);
    expect(await within(card).findByText('At most 1,000,000.00 at a time.')).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await u().clear(amount);
    await u().type(amount, '1000000');
    await u().click(submit);
    expect(await within(card).findByText('The amount must be at most 1000000.00.')).toBeInTheDocument();
  });

  it('in live mode offers to switch to test mode instead of adding funds', async () => {
    renderRoute(TestDataPage);
    const button = await screen.findByRole('button', { name: /Switch to test mode/ });
    expect(screen.queryByTestId('test-funds')).toBeNull();
    expect(calls.some((call) => call.url === '/api/merchant/balance')).toBe(false);
    await u().click(button);
    expect(currentMode()).toBe('test');
    expect(await screen.findByTestId('test-funds')).toBeInTheDocument();
  });

  it('deletes all test data after a confirmation that says what goes and that live data stays, then polls until idle', async () => {
    setMode('test');
    server.use(
      http.post('/api/merchant/test-data/delete', () => {
        deletion = { status: 'running', requested_at: '2026-03-01T00:30:00Z', finished_at: null };
        return json({ data: { status: 'queued', requested_at: deletion.requested_at } }, 202);
      }),
    );
    renderRoute(TestDataPage);
    const card = await screen.findByTestId('delete-test-data');
    expect(await within(card).findByText('Nothing running')).toBeInTheDocument();
    await u().click(within(card).getByTestId('delete-test-data-button'));

    const confirm = await screen.findByTestId('delete-test-data-confirm');
    expect(confirm).toHaveTextContent('Collections, payouts and settlements');
    expect(confirm).toHaveTextContent('Test exports and their files');
    expect(confirm).toHaveTextContent('Live data (orders, balances, access keys, exports) is not touched.');
    expect(posts()).toEqual([]);
    const dialog = confirm.closest('.ant-modal') as HTMLElement;
    await u().click(within(dialog).getByRole('button', { name: 'Delete test data' }));

    expect(await within(card).findByText('Deleting')).toBeInTheDocument();
    expect(posts()).toEqual([{ url: '/api/merchant/test-data/delete', body: {} }]);
    // The job finishes; the page sees it on its next poll.
    deletion = { status: 'idle', requested_at: '2026-03-01T00:30:00Z', finished_at: '2026-03-01T00:30:09Z' };
    expect(await within(card).findByText('Nothing running', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(await screen.findByText('All test data deleted.')).toBeInTheDocument();
    expect(within(card).getByText('2026-03-01 08:30:09')).toBeInTheDocument();
  });

  it('shows test_data_busy under the button while a test export runs', async () => {
    server.use(
      http.post('/api/merchant/test-data/delete', () =>
        apiError(409, 'test_data_busy', 'A test export is running.'),
      ),
    );
    renderRoute(TestDataPage);
    const card = await screen.findByTestId('delete-test-data');
    await waitFor(() => expect(within(card).getByTestId('delete-test-data-button')).toBeEnabled());
    await u().click(within(card).getByTestId('delete-test-data-button'));
    const confirm = await screen.findByTestId('delete-test-data-confirm');
    await u().click(
      within(confirm.closest('.ant-modal') as HTMLElement).getByRole('button', { name: 'Delete test data' }),
    );
    expect(await within(card).findByTestId('delete-test-data-refusal')).toHaveTextContent(
      'A test export is still running. Please try again when it has finished.',
    );
    expect(screen.queryByRole('dialog', { name: /Error/ })).toBeNull();
  });

  it('says it in Chinese', async () => {
    await changeLanguage('zh-cn');
    setMode('test');
    renderRoute(TestDataPage);
    expect(await screen.findByText('添加测试资金', { selector: '.ant-card-head-title' })).toBeInTheDocument();
    expect(screen.getByText('删除全部测试数据', { selector: '.ant-card-head-title' })).toBeInTheDocument();
    expect(await screen.findByText('测试余额')).toBeInTheDocument();
    await changeLanguage('en');
  });
});
