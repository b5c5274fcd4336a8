import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DailyReport, DailyReportListResponse } from '@paydesk/shared/reports/reports.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  exportList,
  type Posted,
  recordExports,
  signInAs,
  tableRows as rows,
  urlFilters,
} from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server } from '../../../test/server.ts';
import DailyReportPage from './daily-report-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

// The merchant's days are in Kolkata (UTC+5:30); the user reads times at UTC+8.
const day = (date: string, overrides: Partial<DailyReport> = {}): DailyReport => {
  const start = new Date(Date.parse(`${date}T00:00:00Z`) - 330 * 60_000);
  return {
    date,
    starts_at: start.toISOString(),
    ends_at: new Date(start.getTime() + 86_400_000).toISOString(),
    opening_balance: '1000.00',
    closing_balance: '1000.00',
    collection_amount: '0.00',
    collection_count: 0,
    collection_fee: '0.00',
    payout_amount: '0.00',
    payout_count: 0,
    payout_fee: '0.00',
    refunds: '0.00',
    collection_refunds: '0.00',
    top_ups: '0.00',
    withdrawals: '0.00',
    transfers: '0.00',
    freezes: '0.00',
    entries: 0,
    final: true,
    currency: 'CNY',
    ...overrides,
  };
};

// What moved on 2026-03-10, the only day of the report with movements: the day's row and the sums alike.
const MARCH_10 = {
  collection_amount: '500.00',
  collection_count: 3,
  collection_fee: '15.00',
  payout_amount: '200.00',
  payout_count: 1,
  payout_fee: '2.50',
  refunds: '20.00',
  collection_refunds: '-12.00',
  top_ups: '100.00',
  withdrawals: '-50.00',
  transfers: '-30.50',
  freezes: '-20.00',
  entries: 9,
};

const ROWS = [
  day('2026-03-11', { opening_balance: '1290.00', closing_balance: '1290.00', final: false }),
  day('2026-03-10', { opening_balance: '1000.00', ...MARCH_10, closing_balance: '1290.00' }),
];

const page = (rows: DailyReport[]): DailyReportListResponse => ({
  data: rows,
  meta: {
    page: 1,
    per_page: 20,
    total: rows.length,
    start_date: '2026-03-10',
    end_date: '2026-03-11',
    timezone: 'Asia/Kolkata',
    sums: { opening_balance: '1000.00', closing_balance: '1290.00', ...MARCH_10 },
  },
});

let lists: URLSearchParams[];
let posts: Posted[];
let answer: (query: URLSearchParams) => DailyReportListResponse;

beforeEach(async () => {
  await changeLanguage('en');
  lists = [];
  posts = recordExports();
  signInAs({ roles: ['FINANCE'], perms: ['funds:view'] });
  server.use(
    http.get('/api/merchant/daily-reports', ({ request }) => {
      const query = new URL(request.url).searchParams;
      lists.push(query);
      return json(answer(query));
    }),
  );
});

const renderPage = (at = '/fund/dailyReport') =>
  renderRoute(DailyReportPage, {
    path: '/fund/dailyReport',
    at,
    pages: { '/fund/fundWater': 'Transactions page' },
  }).router;

describe('Funds > Daily reports', { timeout: 60_000 }, () => {
  it('shows each day from opening to closing balance, the range’s totals, and today as live', async () => {
    answer = () => page(ROWS);
    renderPage('/fund/dailyReport?start_date=2026-03-10&end_date=2026-03-11');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(lists.at(-1)?.get('start_date')).toBe('2026-03-10');
    expect(lists.at(-1)?.get('end_date')).toBe('2026-03-11');
    const [today, yesterday] = rows();
    expect(today.textContent).toContain('2026-03-11');
    expect(within(today).getByText('Live')).toBeInTheDocument();
    expect(within(yesterday).queryByText('Live')).toBeNull();
    const cells = within(yesterday)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      '2026-03-10',
      '1,000.00',
      '500.003 orders · fee 15.00',
      '200.001 order · fee 2.50',
      '+20.00',
      '-12.00',
      '+100.00',
      '-50.00',
      '-30.50',
      '-20.00',
      '1,290.00',
    ]);
    const sums = screen.getByTestId('daily-report-sums');
    expect(sums.textContent).toContain('2026-03-10 ~ 2026-03-11');
    expect(sums.textContent).toContain('Opening balance: 1,000.00');
    expect(sums.textContent).toContain('Collection fees: 15.00');
    // Refunds of collections to their payers (DESIGN 14): money out, beside the payouts given back.
    expect(screen.getByRole('columnheader', { name: 'Collection refunds' })).toBeInTheDocument();
    expect(sums.textContent).toContain('Collection refunds: -12.00');
    expect(sums.textContent).toContain('Closing balance: 1,290.00');
    expect(sums.textContent).toContain('Days in time zone: Asia/Kolkata');
    // Without export:create there is no Export button.
    expect(screen.queryByTestId('export-button')).toBeNull();
  });

  it('exports the range shown: the Export button sends the dates without paging', async () => {
    signInAs({ roles: ['FINANCE'], perms: ['funds:view', 'export:create'] });
    answer = () => page(ROWS);
    renderPage('/fund/dailyReport?start_date=2026-03-10&end_date=2026-03-11&page=2');
    expect(await exportList(posts, 'Excel file (.xlsx)')).toEqual({
      kind: 'daily_reports',
      format: 'xlsx',
      filters: { start_date: '2026-03-10', end_date: '2026-03-11' },
      locale: 'en',
    });
  });

  it('opens the day’s transactions: the merchant’s day read in the user’s own zone', async () => {
    answer = () => page(ROWS);
    const router = renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('link', { name: 'Open the transactions of 2026-03-10' }));
    await screen.findByText('Transactions page');
    expect(router.state.location.pathname).toBe('/fund/fundWater');
    // Kolkata's 2026-03-10 is 2026-03-10 02:30 to 2026-03-11 02:29:59 at UTC+8.
    expect(urlFilters(router)).toEqual({
      start_time: '2026-03-10 02:30:00',
      end_time: '2026-03-11 02:29:59',
    });
  });

  it('reads in Chinese and says when a range has no days', async () => {
    await changeLanguage('zh-cn');
    answer = () => page([]);
    renderPage('/fund/dailyReport?start_date=2030-01-01&end_date=2030-01-31');
    expect(await screen.findByText('该范围内没有日报。')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '日报表' })).toBeInTheDocument();
    expect(screen.getAllByText('期初余额').length).toBeGreaterThan(0);
    expect(screen.getAllByText('代收退款').length).toBeGreaterThan(0);
  });
});
