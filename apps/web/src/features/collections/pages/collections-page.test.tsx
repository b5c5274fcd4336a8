import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  CallbackEvent,
  Collection,
  CollectionDetail,
  CollectionListResponse,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  attemptRows,
  channelAttemptRows,
  chooseAndSearch,
  listAnswer,
  mockListApi,
  openDetails,
  resendCallback,
  signInAs,
  tableRows as rows,
} from '../../../test/list.ts';
import {
  expectOrdersAndSums,
  expectSearched,
  expectSpoken,
  renderFiltered,
} from '../../../test/order-list.ts';
import { collection } from '../../../test/collections.ts';
import { refundPage } from '../../../test/refunds.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server } from '../../../test/server.ts';
import CollectionsPage from './collections-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const order = collection;

const page = (rows: Collection[], meta: Partial<CollectionListResponse['meta']> = {}) =>
  listAnswer(rows, { sums: { amount: '98765.4', count: 4321, fee: '592.59' }, ...meta });

const paidEvent = (attempts: CallbackEvent['attempts']): CallbackEvent => ({
  id: 'evt_1',
  type: 'collection.paid',
  url: 'https://shop.example/notify',
  status: 'pending',
  next_attempt_at: '2026-03-01T00:36:05Z',
  created_at: '2026-03-01T00:31:05Z',
  attempts,
});

const detailOf = (tradeNo: string, callbacks: CallbackEvent[]): CollectionDetail => ({
  ...order(tradeNo, { note: 'table 7' }),
  timeline: [
    { step: 'created', at: '2026-03-01T00:30:00Z' },
    { step: 'paid', at: '2026-03-01T00:31:05Z' },
  ],
  refunded: '0.00',
  callbacks,
  attempts: [
    {
      channel: 'sandbox',
      provider_ref: 'SBX4471029388150062',
      outcome: 'succeeded',
      created_at: '2026-03-01T00:30:00Z',
      updated_at: '2026-03-01T00:31:05Z',
    },
  ],
});

// Times are shown in the user's saved zone (TEST_USER's +08:00 turns 00:30Z into 08:30).
const api = mockListApi<CollectionListResponse, CollectionDetail>('collections', {
  perms: ['collection:view', 'collection:notify'],
});
// A paid order's drawer lists its refunds (collection-refund.test.tsx tests them).
beforeEach(() => server.use(http.get('/api/merchant/refunds', () => json(refundPage([])))));

const renderPage = (at = '/collection/payments') =>
  renderRoute(CollectionsPage, { path: '/collection/payments', at }).router;

describe('Receive money > Transactions', { timeout: 60_000 }, () => {
  it('shows the orders with their tags and times, and the sums of the whole filter', async () => {
    api.list = () =>
      page([
        order('C2', { status: 'to_be_paid', paid_at: null }),
        order('C1', { settlement_status: 'settled' }),
      ]);
    renderPage();
    await expectOrdersAndSums(
      [
        [
          'C2',
          'OUT-C2',
          '1,234.50 Yuan',
          '7.41 Yuan',
          'To be paid',
          'Unsettled',
          'sandbox',
          '2026-03-01 08:30:00',
          '-',
        ],
        ['Paid', 'Settled', 'sandbox', '2026-03-01 08:30:00', '2026-03-01 08:31:05'],
      ],
      {
        sumsId: 'collection-sums',
        sums: 'Collection amount: 98,765.40 YuanOrder count: 4,321Service fee: 592.59 Yuan',
      },
    );
  });

  it('reads the filters from the URL into the request, and writes the ones typed back to the URL', async () => {
    api.list = () => page([order('C1')]);
    const router = await renderFiltered(
      api,
      renderPage,
      '/collection/payments?out_trade_no=OUT-9&status=closed&start_time=2026-03-01%2000:00:00&end_time=2026-03-02%2023:59:59',
      {
        out_trade_no: 'OUT-9',
        status: 'closed',
        start_time: '2026-03-01 00:00:00',
        end_time: '2026-03-02 23:59:59',
      },
    );
    expect(screen.getByPlaceholderText('Please enter the order number')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Merchant order number' })).toHaveProperty('value', 'OUT-9');

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Order number' }), ' C77 ');
    await chooseAndSearch(user, 'Order status', 'Failed');
    await expectSearched(api, router, {
      trade_no: 'C77',
      out_trade_no: 'OUT-9',
      status: 'failed',
      start_time: '2026-03-01 00:00:00',
      end_time: '2026-03-02 23:59:59',
    });
    expect(api.lastQuery().trade_no).toBe('C77');
  });

  it('says whether nothing exists yet or nothing matches the filters', async () => {
    api.list = () => page([], { sums: { amount: '0', count: 0, fee: '0' } });
    renderPage();
    expect(await screen.findByText(/No collection orders yet/)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Order number' }), 'NOPE');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('No collection orders match these filters.')).toBeInTheDocument();
  });

  it('opens an order with its timeline and callback attempts, and resends the callback', async () => {
    const failed = {
      attempt: 1,
      status_code: null,
      latency_ms: 15000,
      error: 'timeout',
      response_excerpt: null,
      created_at: '2026-03-01T00:31:06Z',
    };
    const rejected = {
      attempt: 2,
      status_code: 500,
      latency_ms: 42,
      error: null,
      response_excerpt: 'upstream exploded',
      created_at: '2026-03-01T00:31:21Z',
    };
    let attempts = [failed, rejected];
    api.list = () => page([order('C1')]);
    api.detail = (tradeNo) => detailOf(tradeNo, [paidEvent(attempts)]);
    api.notify = () => {
      attempts = [
        ...attempts,
        { ...rejected, attempt: 3, status_code: 200, response_excerpt: 'ok', latency_ms: 12 },
      ];
      return json({ data: paidEvent(attempts) });
    };
    renderPage();
    const { user, drawer } = await openDetails();
    expect(await within(drawer).findByText('Order C1')).toBeInTheDocument();
    expect(await within(drawer).findByText('table 7')).toBeInTheDocument();
    expect(within(drawer).getByText('Li Lei')).toBeInTheDocument();
    // The channel's own number for the order (the spec's outNo, "associated order number").
    const channelRef = within(drawer).getByText('Associated order number').closest('tr');
    expect(channelRef).toHaveTextContent('SBX4471029388150062');

    const timeline = within(drawer).getByTestId('collection-timeline');
    expect(timeline.textContent).toContain('2026-03-01 08:30:00Created');
    expect(timeline.textContent).toContain('2026-03-01 08:31:05Paid');

    // Its attempt on the channel: the channel, its reference, how it ended, started and last changed.
    expect(channelAttemptRows(within(drawer).getByTestId('collection-attempts'))).toEqual([
      ['sandbox', 'SBX4471029388150062', 'Succeeded', '2026-03-01 08:30:00', '2026-03-01 08:31:05'],
    ]);

    const callbacks = within(drawer).getByTestId('collection-callbacks');
    expect(within(callbacks).getByText('Order paid')).toBeInTheDocument();
    expect(within(callbacks).getByText('https://shop.example/notify')).toBeInTheDocument();
    expect(attemptRows(callbacks)).toEqual([
      ['1', 'timeout', '15000 ms', '2026-03-01 08:31:06', '-'],
      ['2', 'HTTP 500', '42 ms', '2026-03-01 08:31:21', 'upstream exploded'],
    ]);

    const resent = await resendCallback(
      api,
      { user, drawer, callbacks },
      { path: '/api/merchant/collections/C1/notify', attempts: 3 },
    );
    expect(resent[2]).toEqual(['3', 'HTTP 200', '12 ms', '2026-03-01 08:31:21', 'ok']);
  });

  it('offers a read-only user (no collection:notify) the callbacks but no resend', async () => {
    signInAs({ roles: ['VIEWER'], perms: ['collection:view'] });
    api.list = () => page([order('C1')]);
    api.detail = (tradeNo) => detailOf(tradeNo, [paidEvent([])]);
    renderPage();
    const { drawer } = await openDetails();
    const callbacks = await within(drawer).findByTestId('collection-callbacks');
    expect(within(callbacks).getByText('Order paid')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: /Resend callback/ })).not.toBeInTheDocument();
  });

  it('offers no resend for an order without a callback event', async () => {
    api.list = () => page([order('C5', { status: 'to_be_paid', paid_at: null })]);
    api.detail = (tradeNo) => ({
      ...detailOf(tradeNo, []),
      timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
      attempts: [],
    });
    renderPage();
    const { drawer } = await openDetails();
    expect(await within(drawer).findByText('No callback has been sent for this order.')).toBeInTheDocument();
    expect(within(drawer).getByText('The order has not been sent to a channel.')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: /Resend callback/ })).not.toBeInTheDocument();
  });

  it('speaks Chinese: status labels, filter prompts and sums', async () => {
    await changeLanguage('zh-cn');
    api.list = () => page([order('C1', { status: 'closed', settlement_status: 'pending_settlement' })]);
    renderPage();
    await expectSpoken({
      tags: [['已关闭', '待结算']],
      placeholders: ['请输入订单号', '请输入商户订单号'],
      sumsId: 'collection-sums',
      sums: '代收金额: 98,765.40 元订单数: 4,321手续费: 592.59 元',
      statusFilter: '订单状态',
    });
    for (const label of ['待支付', '已支付', '失败'])
      expect(await screen.findByTitle(label)).toBeInTheDocument();
  });

  it("speaks Chinese in the drawer: the order's attempts on channels", async () => {
    await changeLanguage('zh-cn');
    api.list = () => page([order('C1')]);
    api.detail = (tradeNo) => detailOf(tradeNo, []);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(within(rows()[0]).getByRole('button', { name: '详情' }));
    const attempts = await within(await screen.findByRole('dialog')).findByTestId('collection-attempts');
    expect(within(attempts).getByText('通道尝试')).toBeInTheDocument();
    expect(channelAttemptRows(attempts, '通道尝试')).toEqual([
      ['sandbox', 'SBX4471029388150062', '成功', '2026-03-01 08:30:00', '2026-03-01 08:31:05'],
    ]);
  });
});
