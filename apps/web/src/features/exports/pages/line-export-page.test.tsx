import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permsFor, type Role } from '@paydesk/shared/auth/roles.ts';
import type { ExportListResponse, ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { currentUserQueryKey } from '../../../lib/auth/get-current-user.ts';
import { resetHttpStateForTests } from '../../../lib/http.ts';
import { ExportButton } from '../components/export-button.tsx';
import LineExportPage from './line-export-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const task = (id: number, overrides: Partial<ExportTask> = {}): ExportTask => ({
  id,
  kind: 'fund_flows',
  format: 'csv',
  status: 'success',
  filters: {},
  locale: 'en',
  rows_done: 10,
  rows_expected: 10,
  row_count: 10,
  sums: { money_in: '1.00', money_out: '0.00' },
  size: 2048,
  file_name: `fund_flows-20260301-0830-${id}.csv`,
  error: null,
  created_at: '2026-03-01T00:30:00Z',
  started_at: '2026-03-01T00:30:01Z',
  finished_at: '2026-03-01T00:30:02Z',
  expires_at: '2026-03-08T00:30:02Z',
  expired: false,
  ...overrides,
});

let tasks: ExportTask[];
let posts: { url: string; body: unknown }[];
/** What POST /api/merchant/exports answers (a created task unless a test says otherwise). */
let createAnswer: () => Response;

beforeEach(async () => {
  await changeLanguage('en');
  resetHttpStateForTests();
  posts = [];
  createAnswer = () => json(201, { data: task(99, { status: 'waiting' }) });
  document.cookie = 'XSRF-TOKEN=test-token';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      if (init?.method === 'POST') {
        posts.push({ url: path!, body: init.body ? JSON.parse(String(init.body)) : undefined });
        if (path === '/api/merchant/exports') return createAnswer();
        const retried = /^\/api\/merchant\/exports\/(\d+)\/retry$/.exec(path!);
        if (retried) return json(200, { data: task(Number(retried[1]), { status: 'waiting', error: null }) });
      }
      if (path === '/api/csrf-cookie') return new Response(null, { status: 204 });
      if (path === '/api/merchant/exports') {
        const body: ExportListResponse = {
          data: tasks,
          meta: { page: 1, per_page: 20, total: tasks.length },
        };
        return json(200, body);
      }
      return json(404, { message: 'Not found.', code: 'not_found' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string, role: Role = 'FINANCE') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQueryKey, { roles: [role], perms: permsFor([role]) } as never);
  const router = createMemoryRouter(
    [
      { path: '/lineExport', Component: LineExportPage },
      {
        path: '/fund/fundWater',
        Component: () => (
          <ExportButton kind="fund_flows" filters={{ type: 'recharge', page: 3, cursor: 'x' }} />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
  return router;
}

const rows = () => screen.getAllByRole('row').filter((row) => row.classList.contains('data-table__row'));

describe('Exports', { timeout: 60_000 }, () => {
  it("shows each task with the spec's status label, its progress, a download or a retry with the reason", async () => {
    tasks = [
      task(4, { status: 'exporting', rows_done: 250, rows_expected: 1000, row_count: null, size: null }),
      task(3, { status: 'failed', error: 'The file could not be written. Please retry.', size: null }),
      task(2, { status: 'waiting', format: 'xlsx', kind: 'payouts', size: null }),
      task(1),
    ];
    renderAt('/lineExport');
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows()[0]!.textContent).toContain('Exporting');
    expect(rows()[0]!.textContent).toContain('25%');
    expect(rows()[1]!.textContent).toContain('Task failed');
    expect(screen.getByTestId('export-error-3').textContent).toBe(
      'The file could not be written. Please retry.',
    );
    expect(rows()[2]!.textContent).toContain('Waiting for execution');
    expect(rows()[2]!.textContent).toContain('Send money history');
    expect(rows()[3]!.textContent).toContain('Export successful');
    expect(rows()[3]!.textContent).toContain('2.0 KB');
    expect(screen.getByTestId('export-download-1').getAttribute('href')).toBe(
      '/api/merchant/exports/1/download',
    );

    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    await waitFor(() => expect(posts.map((p) => p.url)).toContain('/api/merchant/exports/3/retry'));
  });

  it('says how to export when there is nothing yet', async () => {
    tasks = [];
    renderAt('/lineExport');
    expect(await screen.findByText(/No exports yet/)).toBeInTheDocument();
  });

  it("the Export button sends the list's filters without paging and points to the Exports page", async () => {
    tasks = [];
    const router = renderAt('/fund/fundWater');
    await userEvent.click(await screen.findByTestId('export-button'));
    await userEvent.click(await screen.findByText('Excel file (.xlsx)'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/api/merchant/exports',
      body: { kind: 'fund_flows', format: 'xlsx', filters: { type: 'recharge' }, locale: 'en' },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'See it in Exports' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lineExport'));
  });

  it("says in place, in the user's language, that 10 exports already wait (429 too_many_exports)", async () => {
    tasks = [];
    createAnswer = () =>
      json(429, {
        message: 'You already have 10 exports waiting. Please wait for one to finish, then export again.',
        code: 'too_many_exports',
      });
    await changeLanguage('zh-cn');
    const router = renderAt('/fund/fundWater');
    await userEvent.click(await screen.findByTestId('export-button'));
    await userEvent.click(await screen.findByText('Excel 文件'));
    const refused = await screen.findByTestId('export-refused');
    expect(refused.textContent).toContain('已有 10 个导出任务在等待，请等其中一个完成后再导出。');
    // Beside the button, not a dialog to dismiss; the Exports page is one click away.
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(within(refused).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lineExport'));
  });

  it('is hidden from users who may not export', async () => {
    tasks = [];
    renderAt('/fund/fundWater', 'VIEWER');
    await waitFor(() => expect(document.body.textContent).toBe(''));
    expect(screen.queryByTestId('export-button')).toBeNull();
  });
});
