import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Payout, PayoutDetail, PayoutListResponse } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  attemptRows,
  channelAttemptRows,
  listAnswer,
  mockListApi,
  openDetails,
  resendCallback,
  selectOptions as statusOptions,
  signInAs,
  tableRows as rows,
} from '../../../test/list.ts';
import {
  expectOrdersAndSums,
  expectSearched,
  expectSpoken,
  renderFiltered,
} from '../../../test/order-list.ts';
import { payout } from '../../../test/payouts.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server } from '../../../test/server.ts';
import PayoutsPage from './payouts-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const NO_REVIEW = { created_by: null, reviewed_by: null, reviewed_at: null };

const page = (rows: Payout[], meta: Partial<PayoutListResponse['meta']> = {}) =>
  listAnswer(rows, { sums: { amount: '250000', count: 1234, fee: '3750.5' }, ...meta });

const failedEvent: CallbackEvent = {
  id: 'evt_9',
  type: 'payout.failed',
  url: 'https://shop.example/payouts/notify',
  status: 'failed',
  next_attempt_at: null,
  created_at: '2026-03-01T00:32:11Z',
  attempts: [
    {
      attempt: 1,
      status_code: 503,
      latency_ms: 88,
      error: null,
      response_excerpt: 'maintenance',
      created_at: '2026-03-01T00:32:12Z',
    },
    {
      attempt: 2,
      status_code: null,
      latency_ms: null,
      error: 'connection refused',
      response_excerpt: null,
      created_at: '2026-03-01T00:32:27Z',
    },
  ],
};

// Times are shown in the user's saved zone (TEST_USER's +08:00 turns 00:30Z into 08:30).
const api = mockListApi<PayoutListResponse, PayoutDetail>('payouts', { perms: ['payout:view'] });

const renderPage = (at = '/behalfPay/transfers') =>
  renderRoute(PayoutsPage, { path: '/behalfPay/transfers', at }).router;

describe('Send money history', { timeout: 60_000 }, () => {
  it('shows the payouts with their status, masked account and times, and the sums of the whole filter', async () => {
    api.list = () =>
      page([
        payout('P2', { status: 'processing', finished_at: null }),
        payout('P1', { status: 'refund_received', account_no: '**********0000' }),
      ]);
    renderPage();
    await expectOrdersAndSums(
      [
        [
          'P2',
          'OUT-P2',
          '1,000.00 Yuan',
          '15.50 Yuan',
          'Processing',
          'Li Lei',
          '************2233',
          'sandbox-cn',
          '2026-03-01 08:30:00',
          '-',
        ],
        [
          'Refund received',
          'Li Lei',
          '**********0000',
          'sandbox-cn',
          '2026-03-01 08:30:00',
          '2026-03-01 08:32:10',
        ],
      ],
      {
        sumsId: 'payout-sums',
        sums: 'Payment amount: 250,000.00 YuanCount: 1,234Service fee: 3,750.50 Yuan',
      },
    );
  });

  it('reads the filters from the URL into the request, and writes the ones chosen back to the URL', async () => {
    api.list = () => page([payout('P1')]);
    const router = await renderFiltered(
      api,
      renderPage,
      '/behalfPay/transfers?trade_no=P9&status=success&start_time=2026-03-05&end_time=2026-03-05',
      { trade_no: 'P9', status: 'success', start_time: '2026-03-05', end_time: '2026-03-05' },
    );
    expect(screen.getByRole('textbox', { name: 'Order number' })).toHaveProperty('value', 'P9');

    const user = userEvent.setup({ delay: null });
    await user.clear(screen.getByRole('textbox', { name: 'Order number' }));
    await user.type(screen.getByRole('textbox', { name: 'Merchant order number' }), ' M-77 ');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await waitFor(() =>
      expect(statusOptions()).toEqual([
        'Pending approval',
        'Pending',
        'Processing',
        'Success',
        'Failed',
        'Cancelled',
        'Rejected',
        'Refund received',
      ]),
    );
    await user.click(await screen.findByTitle('Refund received'));
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await expectSearched(api, router, {
      out_trade_no: 'M-77',
      status: 'refund_received',
      start_time: '2026-03-05 00:00:00',
      end_time: '2026-03-05 23:59:59',
    });
    expect(api.lastQuery().out_trade_no).toBe('M-77');
    expect(api.lastQuery()).not.toHaveProperty('trade_no');
  });

  it('says whether nothing exists yet or nothing matches the filters', async () => {
    api.list = () => page([], { sums: { amount: '0', count: 0, fee: '0' } });
    renderPage();
    expect(await screen.findByText(/No payouts yet/)).toBeInTheDocument();
    renderPage('/behalfPay/transfers?status=failed');
    expect(await screen.findByText('No payouts match these filters.')).toBeInTheDocument();
  });

  it('opens a failed payout with every field, why it failed, its timeline and its callbacks', async () => {
    api.list = () => page([payout('P7', { status: 'failed' })]);
    api.detail = (tradeNo) => ({
      ...payout(tradeNo, {
        status: 'failed',
        failure_reason: 'The receiving account is closed',
        note: 'March rent',
        finished_at: '2026-03-01T00:32:10Z',
      }),
      timeline: [
        { step: 'created', at: '2026-03-01T00:30:00Z' },
        { step: 'processing', at: '2026-03-01T00:30:01Z' },
        { step: 'failed', at: '2026-03-01T00:32:10Z' },
      ],
      callbacks: [failedEvent],
      ...NO_REVIEW,
      attempts: [
        {
          channel: 'sandbox-pay',
          provider_ref: 'SBX4471029388150062',
          outcome: 'failed',
          created_at: '2026-03-01T00:30:00Z',
          updated_at: '2026-03-01T00:32:10Z',
        },
      ],
    });
    renderPage();
    const { drawer } = await openDetails();
    expect(await within(drawer).findByText('Payout P7')).toBeInTheDocument();
    expect(api.requests.at(-1)?.path).toBe('/api/merchant/payouts/P7');

    expect(within(drawer).getByTestId('payout-failure').textContent).toContain(
      'The receiving account is closed',
    );
    const fields = within(drawer)
      .getAllByRole('row')
      .map((row) => row.textContent);
    for (const field of [
      'StatusFailed',
      'Sent fromConsole',
      'Account typeIndividual',
      'BankChina Merchants Bank (CMB)',
      'Branch nameShenzhen Branch',
      'PayeeLi Lei',
      'Receiving account************2233',
      'NoteMarch rent',
      // The channel's own number (the spec's outNo).
      'Associated order numberSBX4471029388150062',
      'Finished2026-03-01 08:32:10',
    ])
      expect(fields).toContain(field);
    // Not an Indian or Brazilian payout: no IFSC or CPF row.
    expect(fields.some((text) => text?.startsWith('IFSC') || text?.startsWith('CPF'))).toBe(false);

    const timeline = within(drawer).getByTestId('payout-timeline');
    expect(timeline.textContent).toBe(
      '2026-03-01 08:30:00Created2026-03-01 08:30:01Sent to the bank2026-03-01 08:32:10Failed',
    );

    expect(channelAttemptRows(within(drawer).getByTestId('payout-attempts'))).toEqual([
      ['sandbox-pay', 'SBX4471029388150062', 'Failed', '2026-03-01 08:30:00', '2026-03-01 08:32:10'],
    ]);

    const callbacks = within(drawer).getByTestId('payout-callbacks');
    expect(within(callbacks).getByText('Payout failed')).toBeInTheDocument();
    expect(within(callbacks).getByText('Given up')).toBeInTheDocument();
    expect(within(callbacks).getByText('https://shop.example/payouts/notify')).toBeInTheDocument();
    const attempts = attemptRows(callbacks);
    expect(attempts).toEqual([
      ['1', 'HTTP 503', '88 ms', '2026-03-01 08:32:12', 'maintenance'],
      ['2', 'connection refused', '-', '2026-03-01 08:32:27', '-'],
    ]);
    // A read-only user (no payout:notify) sees the callbacks but cannot send them again.
    expect(within(drawer).queryByRole('button', { name: /Resend callback/ })).toBeNull();
  });

  it('resends the latest callback for a user with payout:notify, and shows the new attempt', async () => {
    signInAs({ perms: ['payout:view', 'payout:notify'] });
    let event = failedEvent;
    api.list = () => page([payout('P7', { status: 'failed' })]);
    api.detail = (tradeNo) => ({
      ...payout(tradeNo, { status: 'failed', failure_reason: 'The receiving account is closed' }),
      timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
      callbacks: [event],
      attempts: [],
      ...NO_REVIEW,
    });
    api.notify = () => {
      event = {
        ...failedEvent,
        status: 'delivered',
        attempts: [
          ...failedEvent.attempts,
          {
            attempt: 3,
            status_code: 200,
            latency_ms: 12,
            error: null,
            response_excerpt: 'ok',
            created_at: '2026-03-01T00:40:00Z',
          },
        ],
      };
      return json({ data: event });
    };
    renderPage();
    const { user, drawer } = await openDetails();
    const callbacks = await within(drawer).findByTestId('payout-callbacks');
    const resent = await resendCallback(
      api,
      { user, drawer, callbacks },
      { path: '/api/merchant/payouts/P7/notify', attempts: 3 },
    );
    expect(resent[2]).toEqual(['3', 'HTTP 200', '12 ms', '2026-03-01 08:40:00', 'ok']);
  });

  it('speaks Vietnamese: statuses, filter prompts and sums', async () => {
    await changeLanguage('vi');
    api.list = () =>
      page([payout('P1', { status: 'rejected', finished_at: null }), payout('P2', { status: 'pending' })]);
    renderPage();
    await expectSpoken({
      tags: [['Bị từ chối'], ['Chờ xử lý']],
      placeholders: ['Vui lòng nhập mã đơn hàng'],
      sumsId: 'payout-sums',
      sums: 'Số tiền chi: 250,000.00 Nhân dân tệSố khoản: 1,234Phí dịch vụ: 3,750.50 Nhân dân tệ',
      statusFilter: 'Trạng thái',
    });
    await waitFor(() =>
      expect(statusOptions()).toEqual([
        'Chờ phê duyệt',
        'Chờ xử lý',
        'Đang xử lý',
        'Thành công',
        'Thất bại',
        'Đã hủy',
        'Bị từ chối',
        'Đã nhận hoàn tiền',
      ]),
    );
  });

  it('offers Approve and Reject on a payout waiting for approval to an approver, only Reject to its maker', async () => {
    const waiting = (tradeNo: string, makerId: number): PayoutDetail => ({
      ...payout(tradeNo, { status: 'pending_approval', finished_at: null, created_by_user_id: makerId }),
      timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
      callbacks: [],
      attempts: [],
      created_by: { id: makerId, name: makerId === 1 ? 'Demo Root' : 'Olivia Operator' },
      reviewed_by: null,
      reviewed_at: null,
    });
    const posts: { path: string; body: unknown }[] = [];
    let decided = false;
    server.use(
      http.post('/api/merchant/payouts/:tradeNo/approve', async ({ params, request }) => {
        posts.push({ path: `approve ${String(params.tradeNo)}`, body: await request.json() });
        decided = true;
        return json({ data: { ...waiting(String(params.tradeNo), 7), status: 'pending' } });
      }),
    );
    signInAs({ perms: ['payout:view', 'payout:approve'] });
    api.list = () => page([payout('P9', { status: 'pending_approval', created_by_user_id: 7 })]);
    api.detail = (tradeNo) =>
      decided
        ? {
            ...waiting(tradeNo, 7),
            status: 'pending',
            reviewed_by: { id: 1, name: 'Demo Root' },
            reviewed_at: '2026-03-01T00:40:00Z',
          }
        : waiting(tradeNo, 7);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]).getByText('Pending approval')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(within(rows()[0]).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog');
    const section = await within(drawer).findByTestId('payout-approval');
    expect(within(section).getByText('Olivia Operator')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: /Reject/ })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: /Approve/ }));
    // The drawer is a dialog too: the approval's modal is the one with its title.
    const dialog = await waitFor(() => {
      const found = screen
        .getAllByRole('dialog')
        .find((element) => within(element).queryByText('Approve payout P9'));
      expect(found).toBeDefined();
      return found!;
    });
    await user.type(within(dialog).getByLabelText('Payment password'), 'pay-123456');
    await user.type(within(dialog).getByLabelText('Google code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(posts).toEqual([
        { path: 'approve P9', body: { payment_password: 'pay-123456', code: '123456' } },
      ]),
    );
    expect(
      await screen.findByText('Payout P9 approved: it is on its way to the channel.'),
    ).toBeInTheDocument();
  });

  it('shows its maker only Reject (the server refuses the maker an approval too)', async () => {
    signInAs({ perms: ['payout:view', 'payout:approve'] });
    api.list = () => page([payout('P10', { status: 'pending_approval', created_by_user_id: 1 })]);
    api.detail = (tradeNo) => ({
      ...payout(tradeNo, { status: 'pending_approval', finished_at: null, created_by_user_id: 1 }),
      timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
      callbacks: [],
      attempts: [],
      created_by: { id: 1, name: 'Demo Root' },
      reviewed_by: null,
      reviewed_at: null,
    });
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(within(rows()[0]).getByRole('button', { name: 'Details' }));
    const section = await within(await screen.findByRole('dialog')).findByTestId('payout-approval');
    expect(within(section).getByRole('button', { name: /Reject/ })).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(section).getByText(/You made this payout/)).toBeInTheDocument();
  });
});
