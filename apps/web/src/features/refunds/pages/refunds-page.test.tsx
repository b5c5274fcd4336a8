import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RefundDetail, RefundListResponse } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  attemptRows,
  chooseAndSearch,
  exportList,
  FIRST_PAGE,
  mockListApi,
  openDetails,
  shownRows,
  tableRows as rows,
  urlFilters,
} from '../../../test/list.ts';
import { refund, refundPage } from '../../../test/refunds.ts';
import { renderRoute } from '../../../test/render.tsx';
import RefundsPage from './refunds-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const SUMS = { amount: '12345.6', count: 321 };

const failedDetail = (refundNo: string): RefundDetail => ({
  ...refund(refundNo, {
    status: 'failed',
    failure_reason: 'The channel refused the refund',
    source: 'gateway',
    finished_at: '2026-03-02T01:00:09Z',
  }),
  timeline: [
    { step: 'created', at: '2026-03-02T01:00:00Z' },
    { step: 'failed', at: '2026-03-02T01:00:09Z' },
  ],
  callbacks: [
    {
      id: 'evt_9',
      type: 'refund.failed',
      url: 'https://shop.example/refunds',
      status: 'delivered',
      next_attempt_at: null,
      created_at: '2026-03-02T01:00:09Z',
      attempts: [
        {
          attempt: 1,
          status_code: 200,
          latency_ms: 30,
          error: null,
          response_excerpt: 'ok',
          created_at: '2026-03-02T01:00:10Z',
        },
      ],
    },
  ],
});

// Times in the user's zone (+08:00): 01:00Z is 09:00.
const api = mockListApi<RefundListResponse, RefundDetail>('refunds', {
  perms: ['collection:view', 'collection:notify', 'export:create'],
});
beforeEach(() => {
  api.detail = failedDetail;
});

const renderPage = (at = '/collection/refunds') =>
  renderRoute(RefundsPage, { path: '/collection/refunds', at }).router;

describe('Receive money > Refunds', { timeout: 60_000 }, () => {
  it('shows the refunds with their status tags and times, and the sums of the whole filter', async () => {
    api.list = () =>
      refundPage(
        [
          refund('R2', { status: 'processing', finished_at: null, reason: null, amount: '20.5' }),
          refund('R1'),
          refund('R0', { status: 'failed', failure_reason: 'refused' }),
        ],
        { sums: SUMS },
      );
    renderPage();
    const [first, second, third] = await shownRows(3);
    expect(first.slice(0, 9)).toEqual([
      'R2',
      'OR-R2',
      'C1',
      '20.50 Yuan',
      'Processing',
      '-',
      'cn-main',
      '2026-03-02 09:00:00',
      '-',
    ]);
    expect(second.slice(3, 9)).toEqual([
      '100.00 Yuan',
      'Succeeded',
      'Damaged item',
      'cn-main',
      '2026-03-02 09:00:00',
      '2026-03-02 09:00:05',
    ]);
    expect(third[4]).toBe('Failed');
    // Status tags in the colours of the other lists: processing blue, succeeded green, failed red.
    expect(within(rows()[0]).getByText('Processing').className).toContain('ant-tag-processing');
    expect(within(rows()[1]).getByText('Succeeded').className).toContain('ant-tag-success');
    expect(within(rows()[2]).getByText('Failed').className).toContain('ant-tag-error');
    expect(screen.getByTestId('refund-sums').textContent).toBe(
      'Refund amount: 12,345.60 YuanRefund count: 321',
    );
  });

  it('reads the filters from the URL into the request, and writes the ones typed back to the URL', async () => {
    api.list = () => refundPage([refund('R1')], { sums: SUMS });
    const router = renderPage(
      '/collection/refunds?trade_no=C9&status=succeeded&start_time=2026-03-01%2000:00:00&end_time=2026-03-02%2023:59:59',
    );
    expect(await api.firstQuery()).toEqual({
      ...FIRST_PAGE,
      trade_no: 'C9',
      status: 'succeeded',
      start_time: '2026-03-01 00:00:00',
      end_time: '2026-03-02 23:59:59',
    });
    expect(screen.getByRole('textbox', { name: 'Order number' })).toHaveProperty('value', 'C9');

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Refund number' }), ' R77 ');
    await user.type(screen.getByRole('textbox', { name: 'Merchant refund number' }), 'OR-77');
    await chooseAndSearch(user, 'Refund status', 'Failed');
    await waitFor(() =>
      expect(urlFilters(router)).toEqual({
        refund_no: 'R77',
        out_refund_no: 'OR-77',
        trade_no: 'C9',
        status: 'failed',
        start_time: '2026-03-01 00:00:00',
        end_time: '2026-03-02 23:59:59',
      }),
    );
    await waitFor(() => expect(api.lastQuery().status).toBe('failed'));
    expect(api.lastQuery().refund_no).toBe('R77');
    expect(api.lastQuery().out_refund_no).toBe('OR-77');
  });

  it('says whether nothing exists yet or nothing matches the filters', async () => {
    api.list = () => refundPage([], { sums: { amount: '0', count: 0 } });
    renderPage();
    expect(await screen.findByText(/No refunds yet/)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Refund number' }), 'NOPE');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('No refunds match these filters.')).toBeInTheDocument();
  });

  it('opens a refund: why it failed, its timeline and its callbacks, read-only', async () => {
    api.list = () => refundPage([refund('R0', { status: 'failed' })], { sums: SUMS });
    renderPage();
    const { drawer } = await openDetails();
    expect(await within(drawer).findByText('Refund R0')).toBeInTheDocument();
    expect(api.requests.some((r) => r.path === '/api/merchant/refunds/R0')).toBe(true);
    expect(await within(drawer).findByTestId('refund-failure')).toHaveTextContent(
      'The channel refused the refund',
    );
    expect(within(drawer).getByText('Made through').closest('tr')).toHaveTextContent('Gateway API');
    expect(within(drawer).getByText('Merchant order number').closest('tr')).toHaveTextContent('OUT-C1');
    const timeline = within(drawer).getByTestId('refund-timeline');
    expect(timeline.textContent).toContain('2026-03-02 09:00:00Created');
    expect(timeline.textContent).toContain('2026-03-02 09:00:09Failed');
    const callbacks = within(drawer).getByTestId('refund-callbacks');
    expect(within(callbacks).getByText('Refund failed')).toBeInTheDocument();
    expect(attemptRows(callbacks)).toEqual([['1', 'HTTP 200', '30 ms', '2026-03-02 09:00:10', 'ok']]);
    // No resend for refunds yet.
    expect(within(drawer).queryByRole('button', { name: /Resend callback/ })).toBeNull();
  });

  it('exports the filters shown as kind refunds', async () => {
    api.list = () => refundPage([refund('R1')], { sums: SUMS });
    renderPage('/collection/refunds?status=succeeded');
    expect(await exportList(api.exports, 'CSV file (.csv)')).toEqual({
      kind: 'refunds',
      format: 'csv',
      filters: { status: 'succeeded' },
      locale: 'en',
    });
  });

  it('speaks Chinese: statuses, filter prompts, sums and the empty list', async () => {
    await changeLanguage('zh-cn');
    api.list = (query) =>
      query.get('refund_no')
        ? refundPage([], { sums: { amount: '0', count: 0 } })
        : refundPage([refund('R2', { status: 'processing', finished_at: null })], { sums: SUMS });
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]).getByText('处理中')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请输入退款单号')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请输入商户退款单号')).toBeInTheDocument();
    expect(screen.getByTestId('refund-sums').textContent).toBe('退款金额: 12,345.60 元退款笔数: 321');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('combobox', { name: '退款状态' }));
    for (const label of ['处理中', '退款成功', '退款失败'])
      expect(await screen.findByTitle(label)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: '退款单号' }), 'NOPE');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    expect(await screen.findByText('没有符合筛选条件的退款。')).toBeInTheDocument();
  });

  it('speaks Vietnamese: the columns and an empty list', async () => {
    await changeLanguage('vi');
    api.list = () => refundPage([], { sums: { amount: '0', count: 0 } });
    renderPage();
    expect(await screen.findByText(/Chưa có khoản hoàn tiền nào/)).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Mã hoàn tiền' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Trạng thái hoàn tiền' })).toBeInTheDocument();
  });
});
