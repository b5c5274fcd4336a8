import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  UndeliveredCallback,
  UndeliveredCallbackListResponse,
} from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import { CALLBACK_EVENT_TYPES } from '@paydesk/shared/collections/collections.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import {
  cellsOf,
  type Call,
  recordCalls,
  selectOptions,
  signInAs,
  tableRows as rows,
  urlFilters,
} from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server } from '../../../test/server.ts';
import WebhookDeliveriesPage from './webhook-deliveries-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const PATH = '/setting/webhookDeliveries';

const event = (id: string, changes: Partial<UndeliveredCallback> = {}): UndeliveredCallback => ({
  id,
  type: 'collection.paid',
  ref_type: 'collection',
  trade_no: 'C2026030100000001',
  url: 'https://shop.example/notify',
  status: 'failed',
  attempts: 13,
  last_status_code: 500,
  last_error: null,
  last_response_excerpt: 'upstream exploded',
  last_attempt_at: '2026-03-04T00:31:05Z',
  next_attempt_at: null,
  created_at: '2026-03-01T00:31:05Z',
  ...changes,
});

const page = (
  data: UndeliveredCallback[],
  meta: Partial<UndeliveredCallbackListResponse['meta']> = {},
): UndeliveredCallbackListResponse => ({
  data,
  meta: { page: 1, per_page: 20, total: data.length, next_cursor: null, ...meta },
});

let requests: Call[];
let answerList: (query: URLSearchParams) => UndeliveredCallbackListResponse;

beforeEach(async () => {
  await changeLanguage('en');
  document.cookie = 'XSRF-TOKEN=t';
  requests = recordCalls({ page: true });
  signInAs({ perms: ['collection:view', 'collection:notify'] });
  server.use(
    http.get('/api/merchant/callbacks', ({ request }) => json(answerList(new URL(request.url).searchParams))),
    http.post('/api/merchant/callbacks/resend', () => json({ data: { resent: 2, has_more: false } })),
    http.post('/api/merchant/callbacks/:id/resend', ({ params }) =>
      json({
        data: {
          id: String(params.id),
          type: 'collection.paid',
          url: 'https://shop.example/notify',
          status: 'pending',
          next_attempt_at: '2026-03-05T00:00:00Z',
          created_at: '2026-03-01T00:31:05Z',
          attempts: [],
        },
      }),
    ),
  );
});

const renderPage = (at = PATH) => renderRoute(WebhookDeliveriesPage, { path: PATH, at }).router;
const listCalls = () => requests.filter((r) => r.method === 'GET' && r.path === '/api/merchant/callbacks');
const posts = () => requests.filter((r) => r.method === 'POST');

describe('Settings > Webhook deliveries', { timeout: 60_000 }, () => {
  it('lists the undelivered callbacks with their last answer and next retry, in the user zone', async () => {
    answerList = () =>
      page([
        event('evt_2', {
          type: 'payout.failed',
          ref_type: 'payout',
          trade_no: 'P2026030200000002',
          status: 'pending',
          attempts: 3,
          last_status_code: null,
          last_error: 'timeout',
          last_response_excerpt: null,
          next_attempt_at: '2026-03-02T01:00:00Z',
          created_at: '2026-03-02T00:45:00Z',
        }),
        event('evt_1'),
      ]);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows().map((row) => cellsOf(row).slice(0, 7))).toEqual([
      [
        '2026-03-02 08:45:00',
        'Payout failed',
        'P2026030200000002',
        '3',
        'timeout',
        '-',
        '2026-03-02 09:00:00',
      ],
      [
        '2026-03-01 08:31:05',
        'Order paid',
        'C2026030100000001',
        '13',
        'HTTP 500',
        'upstream exploded',
        'Given up',
      ],
    ]);
    expect(screen.getByTestId('webhook-sums').textContent).toBe('Not delivered (last 30 days): 2');
  });

  it('filters by event type (every shared type) and time range, through the URL', async () => {
    answerList = () => page([event('evt_1')]);
    const router = renderPage(`${PATH}?start_time=2026-03-01%2000:00:00&end_time=2026-03-02%2023:59:59`);
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(Object.fromEntries(listCalls()[0].query)).toEqual({
      page: '1',
      per_page: '20',
      start_time: '2026-03-01 00:00:00',
      end_time: '2026-03-02 23:59:59',
    });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('combobox', { name: 'Event' }));
    await waitFor(() => expect(selectOptions()).toHaveLength(CALLBACK_EVENT_TYPES.length));
    expect(selectOptions()).toContain('Payout refunded');
    await user.click(await screen.findByTitle('Payout failed'));
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() =>
      expect(urlFilters(router)).toEqual({
        type: 'payout.failed',
        start_time: '2026-03-01 00:00:00',
        end_time: '2026-03-02 23:59:59',
      }),
    );
    await waitFor(() => expect(listCalls().at(-1)?.query.get('type')).toBe('payout.failed'));
  });

  it('says when every callback was delivered, and when nothing matches the filters', async () => {
    answerList = () => page([]);
    renderPage();
    expect(await screen.findByText('Every callback of the last 30 days was delivered.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Resend matching/ })).toBeDisabled();
    renderPage(`${PATH}?type=collection.closed`);
    expect(
      await screen.findByText('No callback that was not delivered matches these filters.'),
    ).toBeInTheDocument();
  });

  it('resends one callback from its row and reads the list again', async () => {
    answerList = () => page([event('evt_1')]);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const readBefore = listCalls().length;
    const user = userEvent.setup({ delay: null });
    await user.click(within(rows()[0]).getByRole('button', { name: /Resend/ }));
    await waitFor(() =>
      expect(posts()).toEqual([expect.objectContaining({ path: '/api/merchant/callbacks/evt_1/resend' })]),
    );
    expect(await screen.findByText('The callback has been queued again')).toBeInTheDocument();
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(readBefore));
  });

  it('resends every match after a confirmation naming how many, with the filters as the range', async () => {
    answerList = () => page([event('evt_1'), event('evt_2')], { total: 57 });
    renderPage(`${PATH}?type=collection.paid&start_time=2026-03-01&end_time=2026-03-03`);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Resend matching/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('57 callbacks not delivered match these filters.');
    expect(posts()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Resend 57' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({
      path: '/api/merchant/callbacks/resend',
      body: { type: 'collection.paid', from: '2026-03-01', to: '2026-03-03' },
    });
    expect(await screen.findByText('Callbacks queued again: 2')).toBeInTheDocument();
  });

  it('without a range, resends the whole 30 days (today back to 30 days ago in the user zone)', async () => {
    answerList = () => page([event('evt_1')]);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Resend matching/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resend 1' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    const body = posts()[0].body as { type?: string; from: string; to: string };
    expect(body.type).toBeUndefined();
    const days = (Date.parse(body.to) - Date.parse(body.from)) / 86_400_000;
    expect(days).toBe(30);
  });

  it('shows no resend to a user who may only look (VIEWER)', async () => {
    signInAs({ perms: ['collection:view'] });
    answerList = () => page([event('evt_1')]);
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Resend/ })).toBeNull();
  });
});
