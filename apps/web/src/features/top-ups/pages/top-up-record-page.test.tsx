import { configure, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TopUp, TopUpListResponse } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { exportList, listAnswer, mockListApi, openDetails, shownRows, signInAs } from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import TopUpRecordPage from './top-up-record-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

// Times are shown in the user's saved zone (TEST_USER's +08:00 turns 00:30Z into 08:30).

const topUp = (no: string, overrides: Partial<TopUp> = {}): TopUp => ({
  recharge_no: no,
  status: 'approved',
  currency: 'USDT',
  network: 'TRC20',
  address: 'TJEh7TX8sNj5uq4hXKyYdTrnGmeeG48top',
  amount: '100.500000',
  received_amount: '100.123456',
  rate: '7.1234',
  credited_amount: '713.21',
  credited_currency: 'CNY',
  credited_usd: '100.12',
  reason: 'Seen on chain',
  screenshot_type: 'image/png',
  created_at: '2026-03-01T00:30:00Z',
  reviewed_at: '2026-03-01T02:00:00Z',
  ...overrides,
});

const list = (rows: TopUp[]) =>
  listAnswer(rows, { sums: { amount: '1300.500000', count: 2, credited: '713.21' } });

const api = mockListApi<TopUpListResponse>('recharges', { roles: ['FINANCE'], perms: ['topup:view'] });

const renderPage = (at = '/recharge/record') =>
  renderRoute(TopUpRecordPage, { path: '/recharge/record', at }).router;

describe('Top-up history', { timeout: 60_000 }, () => {
  it('shows each top-up: network, address, amount, credited in local currency and USD, rate, screenshot, status', async () => {
    api.list = () =>
      list([
        topUp('R2', {
          status: 'rejected',
          received_amount: null,
          rate: null,
          credited_amount: null,
          credited_usd: null,
          reason: 'No matching transfer on chain',
          network: 'ERC20',
          address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          amount: '1200.000000',
        }),
        topUp('R1'),
      ]);
    renderPage();
    const [rejected, approved] = await shownRows(2);
    expect(approved.slice(0, 8)).toEqual([
      'R1',
      'USDT',
      'TRC20',
      'TJEh7TX8sNj5uq4hXKyYdTrnGmeeG48top',
      '100.500000 USDT',
      '713.21 Yuan',
      '100.12 USD',
      '7.1234',
    ]);
    expect(approved.slice(9, 12)).toEqual(['Approved', 'Seen on chain', '2026-03-01 08:30:00']);
    expect(rejected.slice(5, 8)).toEqual(['-', '-', '-']);
    expect(rejected[9]).toBe('Rejected');
    expect(rejected[10]).toBe('No matching transfer on chain');
    // The screenshot preview is read from its endpoint.
    const images = screen.getAllByAltText('Screenshot') as HTMLImageElement[];
    expect(images.map((img) => img.getAttribute('src'))).toEqual([
      '/api/merchant/recharges/R2/screenshot',
      '/api/merchant/recharges/R1/screenshot',
    ]);
    expect(screen.getByTestId('top-up-sums').textContent).toBe(
      'Recharge amount: 1,300.500000 USDTTop-ups: 2Receipt amount: 713.21 Yuan',
    );
  });

  it('filters by status and network through the URL, and opens a rejected top-up with its reason', async () => {
    api.list = () =>
      list([topUp('R9', { status: 'rejected', reason: 'Blurry screenshot', credited_amount: null })]);
    renderPage('/recharge/record?status=rejected&network=ERC20');
    await shownRows(1);
    const call = api.requests.find((r) => r.path === '/api/merchant/recharges')!;
    expect(call.query.get('status')).toBe('rejected');
    expect(call.query.get('network')).toBe('ERC20');
    await openDetails();
    const alert = await screen.findByTestId('top-up-rejected');
    expect(alert.textContent).toContain('Blurry screenshot');
  });

  it('says when there are no top-ups yet, in Vietnamese', async () => {
    await changeLanguage('vi');
    api.list = () => list([]);
    renderPage();
    expect(await screen.findByText('Chưa có giao dịch nạp tiền')).toBeInTheDocument();
  });
  it('exports what the filters show: the Export button sends them without paging', async () => {
    signInAs({ roles: ['FINANCE'], perms: ['topup:view', 'export:create'] });
    api.list = () => list([topUp('R1')]);
    renderPage('/recharge/record?status=approved&network=TRC20&page=2');
    expect(await exportList(api.exports, 'Excel file (.xlsx)')).toEqual({
      kind: 'recharges',
      format: 'xlsx',
      filters: { status: 'approved', network: 'TRC20' },
      locale: 'en',
    });
  });

  it('has no Export button without export:create', async () => {
    api.list = () => list([topUp('R1')]);
    renderPage();
    await shownRows(1);
    expect(screen.queryByTestId('export-button')).toBeNull();
  });
});
