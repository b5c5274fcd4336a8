import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  Collection,
  Settlement,
  SettlementDetail,
  SettlementListResponse,
} from '@paydesk/shared/collections/collections.schemas.ts';
import {
  cellsOf as cells,
  FIRST_PAGE,
  mockListApi,
  openDetails,
  tableRows as rows,
} from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import SettlementsPage from './settlements-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const batch = (no: string, overrides: Partial<Settlement> = {}): Settlement => ({
  settlement_no: no,
  channel: 'sandbox',
  cycle: 'T1',
  business_date: '2026-02-28',
  order_count: 1200,
  gross: '10000',
  fee: '60.5',
  net: '9939.5',
  currency: 'CNY',
  settled_at: '2026-02-28T18:05:00Z',
  ...overrides,
});

const paidOrder = (tradeNo: string): Collection => ({
  trade_no: tradeNo,
  out_trade_no: `OUT-${tradeNo}`,
  status: 'paid',
  settlement_status: 'settled',
  amount: '5000',
  fee: '30.25',
  currency: 'CNY',
  channel: 'sandbox',
  payer_name: null,
  note: null,
  channel_ref: null,
  settlement_no: 'S1',
  created_at: '2026-02-27T01:00:00Z',
  paid_at: '2026-02-27T01:02:00Z',
  expires_at: '2026-02-27T01:30:00Z',
  settled_at: '2026-02-28T18:05:00Z',
});

const api = mockListApi<SettlementListResponse, SettlementDetail>('settlements', {});
beforeEach(() => {
  api.detail = (no) => ({ ...batch(no), orders: [paidOrder('C1'), paidOrder('C2')] });
});

const renderPage = (at = '/collection/Settlements') =>
  renderRoute(SettlementsPage, { path: '/collection/Settlements', at }).router;

describe('Receive money > Settlements', { timeout: 60_000 }, () => {
  it('shows the batches and the sums of the filter, and sends the URL filters', async () => {
    api.list = () => ({
      data: [batch('S2', { cycle: 'T0', business_date: '2026-03-01' }), batch('S1')],
      meta: {
        page: 1,
        per_page: 20,
        total: 2,
        next_cursor: null,
        sums: { gross: '20000', fee: '121', net: '19879', count: 2 },
      },
    });
    renderPage('/collection/Settlements?channel=sandbox&start_time=2026-03-01');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(cells(rows()[0]).slice(0, 9)).toEqual([
      'S2',
      'sandbox',
      'T+0',
      '2026-03-01',
      '1,200',
      '10,000.00 Yuan',
      '60.50 Yuan',
      '9,939.50 Yuan',
      '2026-03-01 02:05:00',
    ]);
    expect(cells(rows()[1])[2]).toBe('T+1');
    expect(screen.getByTestId('settlement-sums').textContent).toBe(
      'Gross amount: 20,000.00 YuanService fee: 121.00 YuanNet amount: 19,879.00 YuanSettlements: 2',
    );
    expect(await api.firstQuery()).toEqual({
      ...FIRST_PAGE,
      channel: 'sandbox',
      start_time: '2026-03-01',
    });
  });

  it('writes a typed settlement number to the URL and the request', async () => {
    api.list = () => ({
      data: [],
      meta: {
        page: 1,
        per_page: 20,
        total: 0,
        next_cursor: null,
        sums: { gross: '0', fee: '0', net: '0', count: 0 },
      },
    });
    const router = renderPage();
    expect(await screen.findByText(/No settlements yet/)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByPlaceholderText('Please enter the settlement number'), 'S404');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('No settlements match these filters.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?settlement_no=S404');
    // The empty answer of the last list shows before the new request is sent: wait for the request itself.
    await waitFor(() => expect(api.lastQuery().settlement_no).toBe('S404'));
  });

  it('lists the orders of a batch in its drawer', async () => {
    api.list = () => ({
      data: [batch('S1')],
      meta: {
        page: 1,
        per_page: 20,
        total: 1,
        next_cursor: null,
        sums: { gross: '1', fee: '0', net: '1', count: 1 },
      },
    });
    renderPage();
    const { drawer } = await openDetails();
    expect(await within(drawer).findByText('Settlement S1')).toBeInTheDocument();
    const orders = await within(drawer).findByRole('table', { name: 'Orders in this settlement' });
    await waitFor(() => expect(rows(orders)).toHaveLength(2));
    expect(cells(rows(orders)[0])).toEqual([
      'C1',
      'OUT-C1',
      '5,000.00',
      '30.25',
      'Paid',
      '2026-02-27 09:02:00',
    ]);
    const details = api.requests.filter((call) => call.path.startsWith('/api/merchant/settlements/'));
    expect(details.map((call) => call.path)).toEqual(['/api/merchant/settlements/S1']);
  });
});
