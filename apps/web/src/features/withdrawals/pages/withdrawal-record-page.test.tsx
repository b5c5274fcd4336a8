import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Withdrawal, WithdrawalListResponse } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  exportList,
  FIRST_PAGE,
  listAnswer,
  mockListApi,
  openDetails,
  shownRows,
  signInAs,
} from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import { withdrawal } from '../../../test/withdrawals.ts';
import WithdrawalRecordPage from './withdrawal-record-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

// Times are shown in the user's saved zone (TEST_USER's +08:00 turns 00:30Z into 08:30).

const HASH = '7c2d1f0e9a8b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d';

const page = (rows: Withdrawal[]) =>
  listAnswer(rows, { sums: { amount: '1250.500000', fee: '6.000000', count: 3, local_total: '9046.80' } });

const api = mockListApi<WithdrawalListResponse>('withdrawals', {
  roles: ['FINANCE'],
  perms: ['withdrawal:view'],
});

const renderPage = (at = '/withdrawal/record') =>
  renderRoute(WithdrawalRecordPage, { path: '/withdrawal/record', at }).router;

describe('Withdrawal history', { timeout: 60_000 }, () => {
  it('shows each withdrawal with its status, the hash once paid and the reason when rejected, and the sums', async () => {
    api.list = () =>
      page([
        withdrawal('W3'),
        withdrawal('W2', {
          status: 'rejected',
          reject_reason: 'Wallet not verified',
          rejected_at: '2026-03-01T02:00:00Z',
        }),
        withdrawal('W1', {
          status: 'paid',
          fee: '0.000000',
          is_free: true,
          local_fee: '0.00',
          local_total: '720.00',
          tx_hash: HASH,
          paid_at: '2026-03-01T03:00:00Z',
        }),
      ]);
    renderPage();
    const [pending, rejected, paid] = await shownRows(3);
    expect(pending.slice(0, 9)).toEqual([
      'W3',
      '100.00 USDT',
      '2.00 USDT',
      '734.40 Yuan',
      'TRC20',
      'TR7NHqje…gjLj6t',
      'Pending review',
      '-',
      '2026-03-01 08:30:00',
    ]);
    expect(rejected.slice(6, 8)).toEqual(['Rejected', 'Wallet not verified']);
    expect(paid.slice(2, 8)).toEqual([
      '0.00 USDT',
      '720.00 Yuan',
      'TRC20',
      'TR7NHqje…gjLj6t',
      'Paid',
      '7c2d1f0e…1b0c9d',
    ]);
    expect(screen.getByTestId('withdrawal-sums').textContent).toBe(
      'Withdrawal amount: 1,250.50 USDTFees: 6.00 USDTCount: 3Local-currency amount: 9,046.80 Yuan',
    );

    // The paid one's detail: the whole hash, the rate, the local amounts and the times.
    const { drawer } = await openDetails({ count: 3, row: 2 });
    expect(drawer.textContent).toContain('Withdrawal W1');
    expect(within(drawer).getByTestId('withdrawal-tx-hash').textContent).toContain(HASH);
    expect(drawer.textContent).toContain('Free withdrawal');
    expect(drawer.textContent).toContain('1 USDT = 7.2 Yuan');
    expect(drawer.textContent).toContain('2026-03-01 11:00:00');
  });

  it("shows a rejection's reason in the drawer", async () => {
    api.list = () => page([withdrawal('W2', { status: 'rejected', reject_reason: 'Wallet not verified' })]);
    renderPage();
    await openDetails();
    expect((await screen.findByTestId('withdrawal-reject-reason')).textContent).toContain(
      'Wallet not verified',
    );
  });

  it('reads the filters from the URL into the request, and says when nothing matches', async () => {
    api.list = () => page([]);
    renderPage('/withdrawal/record?withdrawal_no=W9&status=rejected&network=ERC20');
    expect(await api.firstQuery()).toEqual({
      ...FIRST_PAGE,
      withdrawal_no: 'W9',
      status: 'rejected',
      network: 'ERC20',
    });
    expect(await screen.findByText('No withdrawals match these filters.')).toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    await changeLanguage('zh-cn');
    api.list = () => page([withdrawal('W3', { status: 'approved' })]);
    renderPage();
    const [approved] = await shownRows(1);
    expect(approved[6]).toBe('已审核');
    expect(screen.getByRole('columnheader', { name: '审核状态' })).toBeInTheDocument();
  });
  it('exports what the filters show: the Export button sends them without paging', async () => {
    signInAs({ roles: ['FINANCE'], perms: ['withdrawal:view', 'export:create'] });
    api.list = () => page([withdrawal('W1')]);
    renderPage('/withdrawal/record?status=paid&page=2');
    expect(await exportList(api.exports, 'Excel file (.xlsx)')).toEqual({
      kind: 'withdrawals',
      format: 'xlsx',
      filters: { status: 'paid' },
      locale: 'en',
    });
  });

  it('has no Export button without export:create', async () => {
    api.list = () => page([withdrawal('W1')]);
    renderPage();
    await shownRows(1);
    expect(screen.queryByTestId('export-button')).toBeNull();
  });
});
