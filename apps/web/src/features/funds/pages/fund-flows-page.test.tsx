import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FundFlow, FundFlowListResponse } from '@paydesk/shared/funds/funds.schemas.ts';
import { FIRST_PAGE, mockListApi, openDetails, tableRows as rows } from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import FundFlowsPage from './fund-flows-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const entry = (id: number, overrides: Partial<FundFlow> = {}): FundFlow => ({
  id,
  type: 'transfer_in',
  amount: '1234.5',
  available_after: '10000.00',
  currency: 'CNY',
  ref_type: 'operator_action',
  ref_no: `OP${id}`,
  note: `note ${id}`,
  created_at: '2026-03-01T00:30:00Z',
  ...overrides,
});

const page = (rows: FundFlow[], meta: Partial<FundFlowListResponse['meta']> = {}): FundFlowListResponse => ({
  data: rows,
  meta: {
    page: 1,
    per_page: 20,
    total: rows.length,
    sums: { money_in: '1234.50', money_out: '250.00' },
    next_cursor: null,
    ...meta,
  },
});

const api = mockListApi<FundFlowListResponse, FundFlow>('fund-flows', {});
beforeEach(() => {
  api.detail = (id) => entry(Number(id));
});

const renderPage = (at = '/fund/fundWater') =>
  renderRoute(FundFlowsPage, { path: '/fund/fundWater', at }).router;

describe('Funds > Transactions (the list kit)', { timeout: 60_000 }, () => {
  it('shows the rows, the sums of the whole filter and the filters read from the URL', async () => {
    api.list = () =>
      page([entry(2, { type: 'funds_frozen', amount: '-250.00' }), entry(1)], { total: 12345 });
    renderPage('/fund/fundWater?type=transfer_in&start_time=2026-03-01&end_time=2026-03-02');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0].textContent).toContain('Funds frozen');
    expect(rows()[0].textContent).toContain('-250.00 Yuan');
    expect(rows()[1].textContent).toContain('+1,234.50 Yuan');
    expect(rows()[1].textContent).toContain('10,000.00 Yuan');
    expect(screen.getByTestId('fund-flow-sums').textContent).toBe(
      'Money in: +1,234.50 YuanMoney out: -250.00 YuanTransactions: 12,345',
    );
    expect(await api.firstQuery()).toEqual({
      ...FIRST_PAGE,
      type: 'transfer_in',
      start_time: '2026-03-01',
      end_time: '2026-03-02',
    });
    expect(screen.getByRole('combobox', { name: 'Transaction type' })).toBeInTheDocument();
  });

  it("labels a collection refund's hold as money out and its reversal as money in (DESIGN 14)", async () => {
    api.list = () =>
      page([
        entry(4, { type: 'refund_reversal', amount: '100.00', ref_type: 'refund', ref_no: 'R1' }),
        entry(3, { type: 'refund', amount: '-100.00', ref_type: 'refund', ref_no: 'R1' }),
      ]);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rows()[0]).getByText('Refund reversal').className).toContain('ant-tag-green');
    expect(within(rows()[1]).getByText('Collection refund').className).toContain('ant-tag-orange');
    expect(rows()[1].textContent).toContain('-100.00 Yuan');
  });

  it('says whether nothing exists yet or nothing matches the filters', async () => {
    api.list = () => page([]);
    renderPage();
    expect(await screen.findByText(/No transactions yet/)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Reference number' }), ' NO-SUCH ');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('No transactions match these filters.')).toBeInTheDocument();
    // The empty answer of the last list shows before the new request is sent: wait for the request itself.
    await waitFor(() => expect(api.lastQuery().ref_no).toBe('NO-SUCH'));
  });

  it('goes to the next page by the cursor of the page before, and back to a seen page by its own', async () => {
    api.list = (query) =>
      page(
        Array.from({ length: 20 }, (_, i) => entry((Number(query.get('page')) - 1) * 20 + i + 1)),
        { total: 60, page: Number(query.get('page')), next_cursor: `after-${query.get('page')}` },
      );
    const router = renderPage();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('cursor')).toBe('after-1'),
    );
    await user.click(screen.getByTitle('3'));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('cursor')).toBe('after-2'),
    );
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2&cursor=after-1'));
    await user.click(screen.getByTitle('1'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=1'));
  });

  it('opens one entry in the detail drawer', async () => {
    api.list = () => page([entry(7)]);
    renderPage();
    const { drawer } = await openDetails();
    expect(await within(drawer).findByText('Transaction 7')).toBeInTheDocument();
    expect(await within(drawer).findByText('Platform operator')).toBeInTheDocument();
  });
});
