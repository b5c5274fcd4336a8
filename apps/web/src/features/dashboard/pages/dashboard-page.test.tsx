import {
  cleanup,
  configure,
  screen,
  waitFor,
  waitForElementToBeRemoved,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { DAYS, point } from '../../../test/dashboard.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server, TEST_USER } from '../../../test/server.ts';
import DashboardPage from './dashboard-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

// The last 30 days up to 2026-03-05, oldest first, as the server sends them.
const noSeries = { days: DAYS, collection: null, payout: null };

const TODAY: Dashboard = {
  today: '2026-03-05',
  timezone: '+08:00',
  series: noSeries,
  refunds: null,
  payout_approval: null,
  collection: {
    paid_amount: '123456.7',
    paid_count: 1520,
    order_count: 1600,
    success_rate: '0.9512',
    currency: 'CNY',
  },
  payout: null,
};

let perms: string[];
let answer: Dashboard;
/** The dashboard calls so far, and what the n-th waits for before it answers (nothing unless held). */
let dashboardCalls: number;
let held: (call: number) => Promise<void>;

beforeEach(async () => {
  await changeLanguage('en');
  perms = ['dashboard:view', 'collection:view'];
  dashboardCalls = 0;
  held = async () => undefined;
  server.use(
    http.get('/api/merchant/user', () => json({ data: { ...TEST_USER, perms } })),
    http.get('/api/merchant/dashboard', async () => {
      dashboardCalls += 1;
      await held(dashboardCalls);
      return json({ data: answer });
    }),
    http.get('/api/merchant/balance', () =>
      json({ data: { total: '300', available: '200', locked: '100', currency: 'CNY' } }),
    ),
  );
});

const renderPage = () =>
  renderRoute(DashboardPage, {
    path: '/dashboard',
    routes: [
      { path: '/collection/payments', Component: () => <p>Transactions page</p> },
      { path: '/behalfPay/transfers', Component: () => <p>Send money history page</p> },
      { path: '/collection/refunds', Component: () => <p>Refunds page</p> },
    ],
  }).router;

describe('Dashboard: today’s collection', { timeout: 60_000 }, () => {
  it('shows the paid amount, paid orders and success rate, and opens today’s paid orders', async () => {
    answer = TODAY;
    const router = renderPage();
    const card = await screen.findByTestId('today-collection');
    await waitFor(() => expect(card).toHaveTextContent('123,456.70'));
    expect(card).toHaveTextContent('Paid amount123,456.70Yuan');
    expect(card).toHaveTextContent('Paid orders1,520');
    expect(card).toHaveTextContent('Success rate95.12%');
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('link', { name: "Open today's paid orders" }));
    await screen.findByText('Transactions page');
    expect(router.state.location.pathname).toBe('/collection/payments');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'paid',
      start_time: '2026-03-05',
      end_time: '2026-03-05',
    });
  });

  it('shows a dash for the success rate of a day without orders, in Vietnamese', async () => {
    await changeLanguage('vi');
    answer = {
      today: '2026-03-05',
      timezone: '+08:00',
      series: noSeries,
      collection: { paid_amount: '0', paid_count: 0, order_count: 0, success_rate: null, currency: 'VND' },
      payout: null,
      refunds: null,
      payout_approval: null,
    };
    renderPage();
    const card = await screen.findByTestId('today-collection');
    await waitFor(() => expect(card).toHaveTextContent('Tỷ lệ thành công—'));
    expect(within(card).getByText('Thu hộ hôm nay')).toBeInTheDocument();
    expect(card).toHaveTextContent('Số tiền đã thanh toán0VND');
  });

  it('drops the collection card when the server leaves collection out, and keeps the funds cards', async () => {
    perms = ['dashboard:view', 'funds:view', 'collection:view'];
    answer = {
      today: '2026-03-05',
      timezone: '+08:00',
      series: noSeries,
      collection: null,
      payout: null,
      refunds: null,
      payout_approval: null,
    };
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    held = () => answered;
    renderPage();
    // Until the answer, the user's permission says a card is coming.
    expect(await screen.findByTestId('today-collection')).toBeInTheDocument();
    release();
    await waitForElementToBeRemoved(() => screen.queryByTestId('today-collection'));
    expect(screen.queryByText("Today's collection")).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('funds-available')).toHaveTextContent('200.00'));
  });
});

describe('Dashboard: today’s refunds', { timeout: 60_000 }, () => {
  it('shows the amount and count beside the collection card, and opens today’s refunds', async () => {
    answer = { ...TODAY, refunds: { amount: '4321.5', count: 12, currency: 'CNY' } };
    const router = renderPage();
    const card = await screen.findByTestId('today-refunds');
    expect(within(card).getByText("Today's refunds")).toBeInTheDocument();
    expect(card).toHaveTextContent('Refunded amount4,321.50Yuan');
    expect(card).toHaveTextContent('Refunds12');
    expect(screen.getByTestId('today-collection')).toHaveTextContent('Paid orders1,520');
    await userEvent.setup({ delay: null }).click(screen.getByRole('link', { name: "Open today's refunds" }));
    await screen.findByText('Refunds page');
    expect(router.state.location.pathname).toBe('/collection/refunds');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      start_time: '2026-03-05',
      end_time: '2026-03-05',
    });
  });

  it('has no refunds card when the server leaves refunds out, and speaks Vietnamese', async () => {
    await changeLanguage('vi');
    answer = { ...TODAY, refunds: { amount: '0', count: 0, currency: 'VND' } };
    renderPage();
    const card = await screen.findByTestId('today-refunds');
    expect(within(card).getByText('Hoàn tiền hôm nay')).toBeInTheDocument();
    expect(card).toHaveTextContent('Số tiền đã hoàn0VND');
    cleanup();
    answer = TODAY;
    renderPage();
    const collection = await screen.findByTestId('today-collection');
    await waitFor(() => expect(collection).toHaveTextContent('123,456.70'));
    expect(screen.queryByTestId('today-refunds')).toBeNull();
  });
});

describe('Dashboard: today’s payouts', { timeout: 60_000 }, () => {
  it('shows the paid amount, count and success rate beside the collection, and opens today’s successes', async () => {
    perms = ['dashboard:view', 'collection:view', 'payout:view'];
    answer = {
      ...TODAY,
      payout: {
        paid_amount: '98000.5',
        paid_count: 312,
        order_count: 330,
        success_rate: '0.9455',
        currency: 'CNY',
      },
    };
    const router = renderPage();
    const card = await screen.findByTestId('today-payout');
    await waitFor(() => expect(card).toHaveTextContent('98,000.50'));
    expect(within(card).getByText("Today's payouts")).toBeInTheDocument();
    expect(card).toHaveTextContent('Paid amount98,000.50Yuan');
    expect(card).toHaveTextContent('Successful payouts312');
    expect(card).toHaveTextContent('Success rate94.55%');
    // Beside the collection card, which keeps its own figures.
    expect(screen.getByTestId('today-collection')).toHaveTextContent('Paid orders1,520');
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('link', { name: "Open today's successful payouts" }));
    await screen.findByText('Send money history page');
    expect(router.state.location.pathname).toBe('/behalfPay/transfers');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'success',
      start_time: '2026-03-05',
      end_time: '2026-03-05',
    });
  });

  it('drops the payout card when the server leaves payout out, in Chinese', async () => {
    await changeLanguage('zh-cn');
    perms = ['dashboard:view', 'collection:view', 'payout:view'];
    answer = TODAY;
    renderPage();
    const collection = await screen.findByTestId('today-collection');
    await waitFor(() => expect(collection).toHaveTextContent('123,456.70'));
    expect(within(collection).getByText('今日代收')).toBeInTheDocument();
    expect(screen.queryByTestId('today-payout')).toBeNull();
    expect(screen.queryByText('今日代付')).toBeNull();
  });

  it('promises a payout card while loading only to a user who may see payouts', async () => {
    answer = TODAY;
    // The dashboard never answers here: the cards shown are the ones the permissions promise.
    held = () => new Promise<void>(() => undefined);
    renderPage();
    expect(await screen.findByTestId('today-collection')).toBeInTheDocument();
    expect(screen.queryByTestId('today-payout')).toBeNull();
    cleanup();
    perms = ['dashboard:view', 'payout:view'];
    renderPage();
    expect(await screen.findByTestId('today-payout')).toBeInTheDocument();
    expect(screen.queryByTestId('today-collection')).toBeNull();
  });
});

describe('Dashboard: the charts of the last 7 and 30 days', { timeout: 60_000 }, () => {
  const SERIES = {
    days: DAYS,
    collection: DAYS.map((date) =>
      date === '2026-03-05'
        ? point(date, {
            paid_amount: '100.5',
            paid_count: 2,
            order_count: 4,
            success_rate: '0.6667',
            statuses: { paid: 2, failed: 1, to_be_paid: 1 },
          })
        : date === '2026-03-01'
          ? point(date, {
              paid_amount: '20',
              paid_count: 1,
              order_count: 1,
              success_rate: '1.0000',
              statuses: { paid: 1 },
            })
          : date === '2026-02-10'
            ? point(date, {
                paid_amount: '1000',
                paid_count: 3,
                order_count: 3,
                success_rate: '1.0000',
                statuses: { paid: 3 },
              })
            : point(date),
    ),
    payout: DAYS.map((date) =>
      date === '2026-03-04'
        ? point(date, {
            paid_amount: '7.25',
            paid_count: 1,
            order_count: 2,
            success_rate: '0.5000',
            statuses: { success: 1, rejected: 1 },
          })
        : point(date),
    ),
  };

  it('shows the period’s totals and mix by status, each opening the list that explains it', async () => {
    perms = ['dashboard:view', 'collection:view', 'payout:view'];
    answer = { ...TODAY, series: SERIES };
    const router = renderPage();
    const trends = await screen.findByTestId('dashboard-trends');
    await waitFor(() =>
      expect(within(trends).getByTestId('trend-total-collection')).toHaveTextContent('120.50'),
    );
    expect(within(trends).getByText('Last 7 days')).toBeInTheDocument();
    expect(trends).toHaveTextContent('Collected in the last 7 days120.50Yuan · 3 orders');
    expect(trends).toHaveTextContent('Paid out in the last 7 days7.25Yuan · 1 order');
    // The charts are drawn (SVG) with the period's days.
    const amounts = within(trends).getByTestId('chart-amounts');
    await waitFor(() => expect(amounts.querySelector('svg')).toBeInTheDocument());
    expect(amounts).toHaveTextContent('03-05');
    expect(amounts.textContent).not.toContain('02-10');
    expect(within(trends).getByTestId('chart-success-rate').querySelector('svg')).toBeInTheDocument();

    const mix = within(within(trends).getByTestId('mix-collection'));
    expect(mix.getByRole('link', { name: 'Paid: 3' })).toBeInTheDocument();
    expect(mix.getByRole('link', { name: 'Failed: 1' })).toBeInTheDocument();
    expect(mix.getByRole('link', { name: 'To be paid: 1' })).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(mix.getByRole('link', { name: 'Failed: 1' }));
    await screen.findByText('Transactions page');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'failed',
      start_time: '2026-02-27',
      end_time: '2026-03-05',
    });
  });

  it('switches to 30 days, and the total opens the paid orders of those days', async () => {
    perms = ['dashboard:view', 'collection:view', 'payout:view'];
    answer = { ...TODAY, series: SERIES };
    const router = renderPage();
    const trends = await screen.findByTestId('dashboard-trends');
    await waitFor(() => expect(trends).toHaveTextContent('120.50'));
    const user = userEvent.setup({ delay: null });
    await user.click(within(trends).getByText('30 days'));
    await waitFor(() =>
      expect(within(trends).getByTestId('trend-total-collection')).toHaveTextContent('1,120.50'),
    );
    expect(within(trends).getByText('Last 30 days')).toBeInTheDocument();
    // The axis starts on the period's first day and reaches 02-10's 1,000.00.
    const amounts = within(trends).getByTestId('chart-amounts');
    expect(amounts).toHaveTextContent('02-04');
    expect(amounts).toHaveTextContent('1,000');
    await user.click(screen.getByRole('link', { name: 'Open the paid orders of the period' }));
    await screen.findByText('Transactions page');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'paid',
      start_time: '2026-02-04',
      end_time: '2026-03-05',
    });
  });

  it('has no charts for a user who may see neither list, in Chinese', async () => {
    await changeLanguage('zh-cn');
    perms = ['dashboard:view', 'funds:view'];
    answer = { ...TODAY, collection: null, series: noSeries };
    renderPage();
    await waitFor(() => expect(screen.getByTestId('funds-available')).toHaveTextContent('200.00'));
    expect(screen.queryByTestId('dashboard-trends')).toBeNull();
    expect(screen.getByRole('link', { name: '查看资金流水' })).toBeInTheDocument();
  });

  it('refreshes by itself every 30 seconds without blanking the figures in between', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      perms = ['dashboard:view', 'collection:view'];
      answer = { ...TODAY, series: SERIES };
      let release: () => void = () => undefined;
      // The second answer waits, so the screen between the two is what the test sees.
      held = async (call) => {
        if (call === 2) await new Promise<void>((resolve) => (release = resolve));
      };
      renderPage();
      const card = await screen.findByTestId('today-collection');
      await waitFor(() => expect(card).toHaveTextContent('123,456.70'));
      answer = {
        ...TODAY,
        collection: { ...TODAY.collection!, paid_amount: '200000', paid_count: 1600 },
        series: SERIES,
      };
      await vi.advanceTimersByTimeAsync(30_000);
      await waitFor(() => expect(dashboardCalls).toBe(2));
      // While the new figures are on their way the old ones stay on screen.
      expect(screen.getByTestId('today-collection')).toHaveTextContent('123,456.70');
      release();
      await waitFor(() => expect(screen.getByTestId('today-collection')).toHaveTextContent('200,000.00'));
    } finally {
      vi.useRealTimers();
    }
  });
});
