import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Collection } from '@paydesk/shared/collections/collections.schemas.ts';
import { loadAntdLocale } from '../i18n/antd-locale.ts';
import { changeLanguage } from '../i18n/index.ts';
import { queryClient } from '../lib/query-client.ts';
import { currentMode } from '../stores/mode.ts';
import { resetViews } from '../stores/tags-view.ts';
import { collection } from '../test/collections.ts';
import { listAnswer } from '../test/list.ts';
import { apiError, http, json, server, signInAs, TEST_USER } from '../test/server.ts';
import { AppProviders } from './providers.tsx';
import { appRoutes } from './router.tsx';

// The console as it runs (the route table, the guard, the layout, the pages) against the mock API: the
// Test mode switch, the band, the X-Mode header and what each page does in test mode (DESIGN 12).

configure({ asyncUtilTimeout: 10_000 });

const PERMS = ['collection:view', 'topup:create', 'topup:view', 'withdrawal:view', 'withdrawal:create'];

const order = (tradeNo: string) =>
  collection(tradeNo, { amount: '100', fee: '1', payer_name: null, channel_ref: null });

const listOf = (rows: Collection[], mode: string) =>
  listAnswer(rows, { mode, sums: { amount: '100', count: 1, fee: '1' } });

/** Each call the console sent: its path and the X-Mode header it carried (null: none). */
type Sent = { path: string; mode: string | null };
let sent: Sent[];

beforeAll(async () => {
  await loadAntdLocale('en');
  // jsdom has no scrolling; the shell scrolls the page back to the top after a navigation.
  Element.prototype.scrollTo ??= () => undefined;
  // The layout and the page are chunks the router loads: loaded once here, not within a test's wait.
  await Promise.all([
    import('../layout/app-layout.tsx'),
    import('../features/collections/pages/collections-page.tsx'),
  ]);
}, 60_000);

beforeEach(async () => {
  await changeLanguage('en');
  // The guard wants a session: its XSRF cookie.
  document.cookie = 'XSRF-TOKEN=token; path=/';
  sent = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    sent.push({ path: url.pathname, mode: request.headers.get('x-mode') });
  });
  signInAs({ perms: PERMS });
  // Each mode has its own orders: the mock answers by the header, as the server does.
  server.use(
    http.get('/api/merchant/collections', ({ request }) => {
      const mode = request.headers.get('x-mode') ?? 'live';
      return json(listOf([order(mode === 'test' ? 'TEST-ORDER-1' : 'LIVE-ORDER-1')], mode));
    }),
  );
});

afterEach(() => {
  queryClient.clear();
  resetViews();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

function renderConsole(at: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [at] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const band = () => screen.queryByTestId('test-mode-band');
const modeSwitch = () => screen.getByTestId('mode-switch');
const callsTo = (path: string) => sent.filter((call) => call.path === path);

describe('the console in live and test mode', () => {
  it('opens a merchant without a live channel in test mode: the band, and every call says X-Mode: test', async () => {
    signInAs({ perms: PERMS, merchant: { ...TEST_USER.merchant, default_mode: 'test' } as never });
    renderConsole('/collection/payments');
    expect(await screen.findByText('TEST-ORDER-1')).toBeInTheDocument();
    expect(band()).toHaveTextContent('Test data');
    expect(modeSwitch()).toBeChecked();
    expect(callsTo('/api/merchant/collections').map((call) => call.mode)).toEqual(['test']);
  });

  it('opens in live mode without the band, and sends no X-Mode', async () => {
    renderConsole('/collection/payments');
    expect(await screen.findByText('LIVE-ORDER-1')).toBeInTheDocument();
    expect(band()).toBeNull();
    expect(modeSwitch()).not.toBeChecked();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((call) => call.mode === null)).toBe(true);
  });

  it('switching reads the page again in the other mode and never shows the other mode’s rows', async () => {
    renderConsole('/collection/payments');
    expect(await screen.findByText('LIVE-ORDER-1')).toBeInTheDocument();

    await userEvent.click(modeSwitch());
    // At once: the live rows are gone, not kept on screen while the test ones load.
    expect(screen.queryByText('LIVE-ORDER-1')).toBeNull();
    expect(band()).toBeInTheDocument();
    expect(await screen.findByText('TEST-ORDER-1')).toBeInTheDocument();
    expect(callsTo('/api/merchant/collections').map((call) => call.mode)).toEqual([null, 'test']);
    // The user's choice is kept for them.
    expect(localStorage.getItem(`mode:${TEST_USER.id}`)).toBe('test');

    await userEvent.click(modeSwitch());
    expect(screen.queryByText('TEST-ORDER-1')).toBeNull();
    expect(band()).toBeNull();
    expect(await screen.findByText('LIVE-ORDER-1')).toBeInTheDocument();
    expect(callsTo('/api/merchant/collections').at(-1)?.mode).toBeNull();
  });

  it('keeps the user’s own choice over the merchant’s default', async () => {
    localStorage.setItem(`mode:${TEST_USER.id}`, 'live');
    signInAs({ perms: PERMS, merchant: { ...TEST_USER.merchant, default_mode: 'test' } as never });
    renderConsole('/collection/payments');
    expect(await screen.findByText('LIVE-ORDER-1')).toBeInTheDocument();
    expect(currentMode()).toBe('live');
  });

  it.each([
    ['/recharge/topup', '/api/merchant/recharge-options'],
    ['/recharge/record', '/api/merchant/recharges'],
    ['/withdrawal/apply', '/api/merchant/withdrawal-options'],
    ['/withdrawal/record', '/api/merchant/withdrawals'],
  ])('%s says it is live only in test mode, asks nothing, and switches to live', async (path, api) => {
    localStorage.setItem(`mode:${TEST_USER.id}`, 'test');
    // What the page reads once back in live mode: a refusal is enough to see that it asked.
    server.use(http.get(api, () => apiError(503, 'server_error')));
    renderConsole(path);
    const result = await screen.findByTestId('live-only');
    expect(result).toHaveTextContent('Live mode only');
    expect(result).toHaveTextContent('Top-ups and withdrawals move real money');
    expect(callsTo(api)).toEqual([]);

    await userEvent.click(within(result).getByRole('button', { name: 'Switch to live mode' }));
    expect(band()).toBeNull();
    await waitFor(() => expect(callsTo(api)).toEqual([{ path: api, mode: null }]));
    expect(screen.queryByTestId('live-only')).toBeNull();
  });

  it('shows the server’s live_only refusal in the user’s language if it is reached', async () => {
    server.use(
      http.get('/api/merchant/withdrawals', () =>
        apiError(409, 'live_only', 'Top-ups and withdrawals are live only.'),
      ),
    );
    renderConsole('/withdrawal/record');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Top-ups and withdrawals are live only: switch off test mode to use them.',
    );
  });

  it('the band leaves test mode in one click, on the page the user was on', async () => {
    localStorage.setItem(`mode:${TEST_USER.id}`, 'test');
    const router = renderConsole('/collection/payments');
    expect(await screen.findByText('TEST-ORDER-1')).toBeInTheDocument();
    await userEvent.click(within(band()!).getByRole('button', { name: 'Switch to live mode' }));
    expect(band()).toBeNull();
    expect(await screen.findByText('LIVE-ORDER-1')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/collection/payments');
  });

  it.each([
    ['zh-cn', '测试模式', '测试数据', '切换到正式模式'],
    ['vi', 'Chế độ thử nghiệm', 'Dữ liệu thử nghiệm', 'Chuyển sang chế độ thật'],
  ])('says it in %s', async (language, switchLabel, bandLabel, leave) => {
    await changeLanguage(language);
    localStorage.setItem(`mode:${TEST_USER.id}`, 'test');
    renderConsole('/collection/payments');
    expect(await screen.findByText('TEST-ORDER-1')).toBeInTheDocument();
    expect(screen.getByText(switchLabel)).toBeInTheDocument();
    expect(band()).toHaveTextContent(bandLabel);
    expect(within(band()!).getByRole('button', { name: leave })).toBeInTheDocument();
    await act(() => changeLanguage('en'));
  });
});
