import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardSeries, DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import type { ChartClick } from './echart.tsx';
import { TrendsCard } from './trends-card.tsx';

configure({ asyncUtilTimeout: 10_000 });

// The chart itself is ECharts' business: here each chart is a row of buttons, one per point, that report
// the click ECharts would, so the test checks where a click on a bar, a point or a slice leads.
vi.mock('./echart.tsx', () => ({
  EChart: ({
    testId,
    option,
    onClick,
  }: {
    testId: string;
    option: { series: { data: unknown[] }[] };
    onClick?: (click: ChartClick) => void;
  }) => (
    <div data-testid={testId}>
      {option.series.flatMap((series, seriesIndex) =>
        series.data.map((_, dataIndex) => (
          <button
            key={`${seriesIndex}-${dataIndex}`}
            type="button"
            onClick={() => onClick?.({ seriesIndex, dataIndex, name: '' })}
          >{`${testId} ${seriesIndex} ${dataIndex}`}</button>
        )),
      )}
    </div>
  ),
}));

const DAYS = Array.from({ length: 30 }, (_, i) =>
  new Date(Date.UTC(2026, 1, 4 + i)).toISOString().slice(0, 10),
);
const point = (date: string, over: Partial<DayPoint> = {}): DayPoint => ({
  date,
  paid_amount: '0',
  paid_count: 0,
  order_count: 0,
  success_rate: null,
  statuses: {},
  ...over,
});
const SERIES: DashboardSeries = {
  days: DAYS,
  collection: DAYS.map((date) =>
    date === '2026-03-05' ? point(date, { order_count: 3, statuses: { paid: 2, closed: 1 } }) : point(date),
  ),
  payout: DAYS.map((date) =>
    date === '2026-03-04' ? point(date, { order_count: 1, statuses: { rejected: 1 } }) : point(date),
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

beforeEach(() => changeLanguage('en'));

describe('the charts open the list behind what was clicked', { timeout: 60_000 }, () => {
  it('a payout bar opens that day’s successful payouts', async () => {
    const router = renderCard();
    // Series 1 is the payouts; the 7-day view ends on 2026-03-05, so point 5 is 2026-03-04.
    await userEvent.setup({ delay: null }).click(await screen.findByText('chart-amounts 1 5'));
    await screen.findByText('Send money history page');
    expect(searchOf(router)).toEqual({ status: 'success', start_time: '2026-03-04', end_time: '2026-03-04' });
  });

  it('a success rate point opens every collection of that day', async () => {
    const router = renderCard();
    await userEvent.setup({ delay: null }).click(await screen.findByText('chart-success-rate 0 6'));
    await screen.findByText('Transactions page');
    expect(searchOf(router)).toEqual({ start_time: '2026-03-05', end_time: '2026-03-05' });
  });

  it('a slice of the mix opens that status over the period', async () => {
    const router = renderCard();
    // The collections' slices in status order: paid, then closed.
    await userEvent.setup({ delay: null }).click(await screen.findByText('chart-mix-collection 0 1'));
    await screen.findByText('Transactions page');
    expect(searchOf(router)).toEqual({ status: 'closed', start_time: '2026-02-27', end_time: '2026-03-05' });
  });
});
