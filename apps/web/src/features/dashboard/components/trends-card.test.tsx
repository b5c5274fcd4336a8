import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DashboardSeries, DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { DAYS, point } from '../../../test/dashboard.ts';
import { TrendsCard } from './trends-card.tsx';

configure({ asyncUtilTimeout: 10_000 });

// DAYS: 2026-02-04 to 2026-03-05; the 7-day view is 02-27 to 03-05.
const COLLECTIONS: Record<string, Partial<DayPoint>> = {
  // Alone between two days without orders.
  '2026-03-01': {
    paid_amount: '5',
    paid_count: 1,
    order_count: 1,
    success_rate: '1.0000',
    statuses: { paid: 1 },
  },
  '2026-03-04': {
    paid_amount: '20',
    paid_count: 1,
    order_count: 2,
    success_rate: '0.5000',
    statuses: { paid: 1, closed: 1 },
  },
  '2026-03-05': {
    paid_amount: '100.5',
    paid_count: 2,
    order_count: 3,
    success_rate: '0.6667',
    statuses: { paid: 2, closed: 1 },
  },
};
const SERIES: DashboardSeries = {
  days: DAYS,
  collection: DAYS.map((date) => point(date, COLLECTIONS[date])),
  payout: DAYS.map((date) =>
    date === '2026-03-04'
      ? point(date, {
          paid_amount: '7.25',
          paid_count: 1,
          order_count: 1,
          success_rate: '1.0000',
          statuses: { success: 1 },
        })
      : point(date),
  ),
};

function renderCard() {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', Component: () => <TrendsCard series={SERIES} currency="CNY" /> },
      { path: '/collection/payments', Component: () => <p>Transactions page</p> },
      { path: '/behalfPay/transfers', Component: () => <p>Send money history page</p> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
  return router;
}

const searchOf = (router: ReturnType<typeof renderCard>) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));

/** The elements of a chart that `selector` picks, in the order they are drawn. */
const marks = (chart: HTMLElement, selector: string) => [...chart.querySelectorAll<SVGElement>(selector)];
// Each day's bars are drawn together, collections then payouts.
const bar = (chart: HTMLElement, seriesIndex: number, dataIndex: number) =>
  marks(chart, '.chart-bar')[dataIndex * 2 + seriesIndex];
const texts = (chart: HTMLElement) => marks(chart, 'text').map((text) => text.textContent);
const tooltipOf = (chart: HTMLElement) => within(chart).getByRole('tooltip').textContent;

/** The distance from each arc's start to its end in an SVG path of M, L, A and Z commands. */
function arcChords(path: string): number[] {
  let from = [0, 0];
  const chords: number[] = [];
  for (const command of path.match(/[MLA][^MLAZ]*/g) ?? []) {
    const to = command.slice(1).trim().split(/[ ,]+/).map(Number).slice(-2);
    if (command[0] === 'A') chords.push(Math.hypot(to[0] - from[0], to[1] - from[1]));
    from = to;
  }
  return chords;
}

beforeEach(() => changeLanguage('en'));

describe('the charts open the list behind what was clicked', { timeout: 60_000 }, () => {
  it('a bar shows its day in a tooltip, and opens that day’s paid orders of its series', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const amounts = await screen.findByTestId('chart-amounts');
    // Day 5 of the 7 is 2026-03-04; series 1 is the payouts.
    await user.hover(bar(amounts, 1, 5));
    expect(tooltipOf(amounts)).toBe('03-04Collections20.00Payouts7.25');
    await user.click(bar(amounts, 1, 5));
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ status: 'success', start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('a success rate point opens every order of its day', async () => {
    const router = renderCard();
    const rate = await screen.findByTestId('chart-success-rate');
    // The collections' points: 03-01, 03-04 and 03-05.
    await userEvent.setup({ delay: null }).click(marks(rate, '.chart-point')[2]);
    await screen.findByText('Transactions page');
    expect(searchOf(router)).toEqual({ start_time: '2026-03-05', end_time: '2026-03-05' });
  });

  it('a click in a day’s column beside the points opens the series whose point is nearest', async () => {
    const router = renderCard();
    const rate = await screen.findByTestId('chart-success-rate');
    // On 03-04 the payouts are at 100%, the collections at 50%; the click lands just under the payouts'.
    const payoutPoint = marks(rate, '.chart-point')[3];
    fireEvent.click(marks(rate, '.chart-day')[5], { clientY: Number(payoutPoint.getAttribute('cy')) + 10 });
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('a slice of the mix shows its share, and opens that status over the period', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const mix = await screen.findByTestId('chart-mix-collection');
    // The collections' slices in status order: paid, then closed.
    const closed = marks(mix, '.chart-slice')[1];
    await user.hover(closed);
    expect(tooltipOf(mix)).toBe('Closed: 2 (33.33%)');
    await user.click(closed);
    await screen.findByText('Transactions page');
    expect(searchOf(router)).toEqual({ status: 'closed', start_time: '2026-02-27', end_time: '2026-03-05' });
  });
});

describe('the charts take the keyboard and touch', { timeout: 60_000 }, () => {
  /** Tabs from the top of the page to the chart's one tab stop. */
  async function tabInto(user: ReturnType<typeof userEvent.setup>, chart: HTMLElement) {
    for (let i = 0; i < 20 && !chart.contains(document.activeElement); i += 1) await user.tab();
    expect(chart.contains(document.activeElement)).toBe(true);
  }

  it('a focused bar shows its day’s tooltip, the arrows move between bars, Enter opens its list', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const amounts = await screen.findByTestId('chart-amounts');
    await tabInto(user, amounts);
    // The first bar of the period: 02-27, collections.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '02-27 Collections: 0.00' }));
    expect(tooltipOf(amounts)).toBe('02-27Collections0.00Payouts0.00');
    // The last bar is 03-05's payouts; two back is 03-04's.
    await user.keyboard('{End}{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '03-04 Payouts: 7.25' }));
    expect(tooltipOf(amounts)).toBe('03-04Collections20.00Payouts7.25');
    await user.keyboard('{Enter}');
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ status: 'success', start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('is one tab stop a chart, and its tooltip goes when the focus leaves', async () => {
    renderCard();
    const user = userEvent.setup({ delay: null });
    const amounts = await screen.findByTestId('chart-amounts');
    await tabInto(user, amounts);
    expect(
      within(amounts)
        .getAllByRole('button')
        .filter((bar) => bar.tabIndex === 0),
    ).toHaveLength(1);
    await user.tab();
    expect(amounts.contains(document.activeElement)).toBe(false);
    expect(within(amounts).queryByRole('tooltip')).toBeNull();
    // The focus is now in the success rate, on its first point (03-01).
    const rate = screen.getByTestId('chart-success-rate');
    expect(document.activeElement).toBe(
      within(rate).getByRole('button', { name: '03-01 Collections: 100%' }),
    );
    expect(tooltipOf(rate)).toBe('03-01Collections100%Payouts—');
  });

  it('Space on a success rate point opens every order of its day', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const rate = await screen.findByTestId('chart-success-rate');
    await tabInto(user, rate);
    // Points in day order: 03-01, 03-04 (collections, payouts), 03-05.
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(within(rate).getByRole('button', { name: '03-04 Payouts: 100%' }));
    await user.keyboard(' ');
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('a focused slice shows its share, and Enter opens its status', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const mix = await screen.findByTestId('chart-mix-collection');
    await tabInto(user, mix);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(mix).getByRole('button', { name: 'Closed: 2 (33.33%)' }));
    expect(tooltipOf(mix)).toBe('Closed: 2 (33.33%)');
    await user.keyboard('{Enter}');
    await screen.findByText('Transactions page');
    expect(searchOf(router)).toEqual({ status: 'closed', start_time: '2026-02-27', end_time: '2026-03-05' });
  });

  it('a tap on a touch screen shows the bar’s tooltip, a second tap on it opens its list', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const amounts = await screen.findByTestId('chart-amounts');
    await user.pointer({ keys: '[TouchA]', target: bar(amounts, 1, 5) });
    expect(tooltipOf(amounts)).toBe('03-04Collections20.00Payouts7.25');
    expect(router.state.location.pathname).toBe('/dashboard');
    await user.pointer({ keys: '[TouchA]', target: bar(amounts, 1, 5) });
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ status: 'success', start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('a finger sliding across the chart moves the tooltip from day to day, and it stays once lifted', async () => {
    const router = renderCard();
    const user = userEvent.setup({ delay: null });
    const rate = await screen.findByTestId('chart-success-rate');
    const days = marks(rate, '.chart-day');
    await user.pointer([
      { keys: '[TouchA>]', target: days[4] },
      { pointerName: 'TouchA', target: days[5] },
      { keys: '[/TouchA]', target: days[5] },
    ]);
    expect(tooltipOf(rate)).toBe('03-04Collections50%Payouts100%');
    expect(router.state.location.pathname).toBe('/dashboard');
    // A touch elsewhere on the page puts it away.
    await user.pointer({ keys: '[TouchA]', target: screen.getByTestId('trend-totals') });
    expect(within(rate).queryByRole('tooltip')).toBeNull();
  });

  it('a touch on a slice shows its share', async () => {
    renderCard();
    const user = userEvent.setup({ delay: null });
    const mix = await screen.findByTestId('chart-mix-collection');
    fireEvent.pointerDown(marks(mix, '.chart-slice')[0], { pointerType: 'touch' });
    expect(tooltipOf(mix)).toBe('Paid: 4 (66.67%)');
    await user.pointer({ keys: '[TouchA]', target: document.body });
    expect(within(mix).queryByRole('tooltip')).toBeNull();
  });
});

describe('the charts draw what the figures are', { timeout: 60_000 }, () => {
  it('labels the amounts in round steps above the largest, and thins 30 days of labels', async () => {
    renderCard();
    const amounts = await screen.findByTestId('chart-amounts');
    // The largest day is 100.50.
    expect(texts(amounts)).toEqual(['0', '50', '100', '150', ...DAYS.slice(-7).map((day) => day.slice(5))]);
    expect(within(amounts).getByText('Collections')).toBeInTheDocument();

    await userEvent.setup({ delay: null }).click(screen.getByText('30 days'));
    const days = marks(amounts, 'text').filter((text) => /^\d\d-\d\d$/.test(text.textContent));
    expect(days[0].textContent).toBe('02-04');
    expect(days.length).toBeLessThan(30);
    // Far enough apart not to touch: "00-00" is under 40 px at 12 px.
    const centres = days.map((text) => Number(text.getAttribute('x')));
    for (const [i, centre] of centres.slice(1).entries()) expect(centre - centres[i]).toBeGreaterThan(40);
  });

  it('draws the success rate from 0 to 100% with a point for a day alone between days without orders', async () => {
    renderCard();
    const user = userEvent.setup({ delay: null });
    const rate = await screen.findByTestId('chart-success-rate');
    expect(texts(rate).slice(0, 6)).toEqual(['0%', '20%', '40%', '60%', '80%', '100%']);
    // Collections on 03-01 (alone), 03-04 and 03-05 (a line); payouts on 03-04 (alone).
    expect(marks(rate, '.chart-point')).toHaveLength(4);
    expect(marks(rate, 'path')).toHaveLength(1);
    await user.hover(marks(rate, '.chart-point')[0]);
    expect(tooltipOf(rate)).toBe('03-01Collections100%Payouts—');
    await user.unhover(marks(rate, '.chart-point')[0]);
    expect(within(rate).queryByRole('tooltip')).toBeNull();
  });

  it('draws a status that is all of the period as a whole ring', async () => {
    renderCard();
    const mix = await screen.findByTestId('chart-mix-payout');
    const [ring] = marks(mix, '.chart-slice');
    // An arc that ends where it starts draws nothing: each arc of the ring must go somewhere.
    const chords = arcChords(ring.getAttribute('d')!);
    expect(chords.length).toBeGreaterThan(0);
    for (const chord of chords) expect(chord).toBeGreaterThan(1);
    await userEvent.setup({ delay: null }).hover(ring);
    expect(tooltipOf(mix)).toBe('Success: 1 (100%)');
  });
});
