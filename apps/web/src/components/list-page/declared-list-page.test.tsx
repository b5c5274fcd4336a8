import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CursorListMetaSchema, CursorListQuerySchema } from '@paydesk/shared/pagination.ts';
import { changeLanguage } from '../../i18n/index.ts';
import {
  cellsOf,
  recordCalls,
  type Call,
  selectOptions,
  signInAs,
  tableRows,
  urlFilters,
  listAnswer,
} from '../../test/list.ts';
import { renderRoute } from '../../test/render.tsx';
import { apiError, http, json, server } from '../../test/server.ts';
import { declaredListPage } from './declared-list-page.tsx';
import { listApi } from './list-api.ts';

configure({ asyncUtilTimeout: 10_000 });

// A list declared from each kind, on the collection texts (so its words exist in the three languages).
const Order = z.object({
  trade_no: z.string(),
  status: z.enum(['paid', 'failed']),
  amount: z.string(),
  currency: z.enum(['CNY', 'USD']),
  channel: z.string().nullable(),
  order_count: z.number(),
  created_at: z.string(),
  note: z.string().nullable(),
});
type Order = z.infer<typeof Order>;
const Detail = Order.extend({
  failure: z.string().nullable(),
  timeline: z.array(z.object({ step: z.string(), at: z.string() })),
  callbacks: z.array(z.any()),
});
const Query = CursorListQuerySchema.extend({
  status: z.enum(['paid', 'failed']).optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional(),
});
const ListAnswer = z.object({
  data: z.array(Order),
  meta: CursorListMetaSchema.extend({ sums: z.object({ amount: z.string(), count: z.number() }) }),
});

const STATUS = { labels: 'status', colors: { paid: 'success', failed: 'error' } };
const orders = listApi('test-orders', {
  schema: ListAnswer,
  detail: z.object({ data: Detail }),
  notify: true,
});
const OrdersPage = declaredListPage({
  name: 'order',
  namespace: 'collections',
  title: 'routes:payments',
  query: Query,
  api: orders,
  rowKey: 'trade_no',
  columns: [
    { key: 'tradeNo', title: 'columns.tradeNo', kind: 'text', field: 'trade_no' },
    {
      key: 'amount',
      title: 'columns.amount',
      kind: 'money',
      field: 'amount',
      currency: { field: 'currency' },
    },
    { key: 'status', title: 'columns.status', kind: 'status', field: 'status', ...STATUS },
    { key: 'channel', title: 'columns.channel', kind: 'text', field: 'channel' },
    { key: 'count', title: 'settlements.columns.orderCount', kind: 'count', field: 'order_count' },
    { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
  ],
  filters: [
    {
      kind: 'select',
      name: 'status',
      label: 'columns.status',
      placeholder: 'filters.status',
      options: ['paid', 'failed'],
      labels: 'status',
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: 'columns.time',
      placeholder: ['filters.startTime', 'filters.endTime'],
    },
  ],
  sums: [
    { key: 'amount', label: 'sums.amount', kind: 'money', field: 'amount' },
    { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
  ],
  detail: {
    title: { param: 'tradeNo' },
    alerts: [{ type: 'error', title: 'detail.note', field: 'failure', testId: 'order-failure' }],
    fields: [
      { key: 'tradeNo', label: 'columns.tradeNo', kind: 'text', field: 'trade_no', copyable: true },
      { key: 'note', label: 'detail.note', kind: 'text', field: 'note', omitEmpty: true },
      { key: 'channel', label: 'columns.channel', kind: 'text', field: 'channel' },
    ],
    sections: [
      {
        kind: 'timeline',
        field: 'timeline',
        colors: {},
        steps: 'detail.steps',
        title: 'detail.timeline',
        empty: 'detail.noTimeline',
      },
      { kind: 'callbacks', field: 'callbacks', perm: 'collection:notify' },
    ],
  },
});

const order = (tradeNo: string, changes: Partial<Order> = {}): Order => ({
  trade_no: tradeNo,
  status: 'paid',
  amount: '1234.5',
  currency: 'USD',
  channel: 'sandbox',
  order_count: 4321,
  created_at: '2026-03-01T00:30:00Z',
  note: null,
  ...changes,
});

let requests: Call[];
let rows: Order[];
let failing: boolean;

beforeEach(async () => {
  await changeLanguage('en');
  requests = recordCalls({ page: true });
  rows = [order('T1'), order('T2', { status: 'failed', channel: null, currency: 'CNY' })];
  failing = false;
  server.use(
    http.get('/api/merchant/test-orders', () =>
      failing
        ? apiError(500, 'server_error', 'Server error.')
        : json(listAnswer(rows, { sums: { amount: '98765.4', count: 4321 } })),
    ),
    http.get('/api/merchant/test-orders/:no', ({ params }) =>
      json({
        data: {
          ...order(String(params.no)),
          failure: params.no === 'T2' ? 'The bank said no' : null,
          timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
          callbacks: [],
        },
      }),
    ),
  );
});

const renderPage = (at = '/orders') => renderRoute(OrdersPage, { path: '/orders', at }).router;

describe('a declared list', { timeout: 60_000 }, () => {
  it('draws each kind of column: text, money in its currency, status tag, count, time in the user zone', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    // TEST_USER's zone is +08:00: 00:30Z is 08:30 there.
    expect(
      tableRows()
        .map(cellsOf)
        .map((cells) => cells.slice(0, 6)),
    ).toEqual([
      ['T1', '1,234.50 USD', 'Paid', 'sandbox', '4,321', '2026-03-01 08:30:00'],
      ['T2', '1,234.50 Yuan', 'Failed', '-', '4,321', '2026-03-01 08:30:00'],
    ]);
    // Money and counts sit on the right.
    expect(within(tableRows()[0]).getAllByRole('cell')[1]).toHaveStyle({ textAlign: 'right' });
    // The sums are in the merchant's currency.
    expect(screen.getByTestId('order-sums')).toHaveTextContent(
      'Collection amount: 98,765.40 YuanOrder count: 4,321',
    );
  });

  it('offers the statuses in the select and writes the chosen one and the time range to the URL', async () => {
    const router = renderPage('/orders?start_time=2026-03-01&end_time=2026-03-02');
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    expect(Object.fromEntries(requests[0].query)).toEqual({
      page: '1',
      per_page: '20',
      start_time: '2026-03-01',
      end_time: '2026-03-02',
    });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('combobox', { name: 'Order status' }));
    await waitFor(() => expect(selectOptions()).toEqual(['Paid', 'Failed']));
    await user.click(await screen.findByTitle('Failed'));
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() =>
      expect(urlFilters(router)).toEqual({
        status: 'failed',
        start_time: '2026-03-01 00:00:00',
        end_time: '2026-03-02 23:59:59',
      }),
    );
  });

  it('says whether nothing exists yet or nothing matches the filters', async () => {
    rows = [];
    renderPage();
    expect(await screen.findByText(/No collection orders yet/)).toBeInTheDocument();
    renderPage('/orders?status=paid');
    expect(await screen.findByText('No collection orders match these filters.')).toBeInTheDocument();
  });

  it('shows no rows and no sums when the list cannot be read (the HTTP client alerts the error)', async () => {
    failing = true;
    renderPage();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(await screen.findByText(/No collection orders yet/)).toBeInTheDocument();
    expect(screen.queryByTestId('order-sums')).not.toBeInTheDocument();
  });

  it('opens the drawer from the detail endpoint: title, alert, fields (empty ones left out), timeline, callbacks', async () => {
    signInAs({ perms: ['collection:view'] });
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    await userEvent
      .setup({ delay: null })
      .click(within(tableRows()[1]).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Order T2')).toBeInTheDocument();
    expect(await within(drawer).findByTestId('order-failure')).toHaveTextContent('The bank said no');
    expect(requests.at(-1)?.path).toBe('/api/merchant/test-orders/T2');
    const fields = within(drawer)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(fields).toEqual(['Order numberT2', 'Channelsandbox']);
    expect(within(drawer).getByTestId('order-timeline')).toHaveTextContent('2026-03-01 08:30:00Created');
    expect(within(drawer).getByTestId('order-callbacks')).toHaveTextContent(
      'No callback has been sent for this order.',
    );
  });

  it('speaks Chinese and Vietnamese: titles, tags and sums by key of the namespace', async () => {
    await changeLanguage('zh-cn');
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    expect(within(tableRows()[1]).getByText('失败')).toBeInTheDocument();
    expect(screen.getByTestId('order-sums')).toHaveTextContent('代收金额: 98,765.40 元');
    await changeLanguage('vi');
    await waitFor(() => expect(screen.getByTestId('order-sums')).toHaveTextContent('Nhân dân tệ'));
  });
});
