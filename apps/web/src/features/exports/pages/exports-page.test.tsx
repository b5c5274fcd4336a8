import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { permsFor, type Role } from '@paydesk/shared/auth/roles.ts';
import type { ExportListResponse, ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { exportTask as task, type Posted, signInAs, tableRows as rows } from '../../../test/list.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, server } from '../../../test/server.ts';
import { ExportButton } from '../components/export-button.tsx';
import ExportsPage from './exports-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

let tasks: ExportTask[];
let posts: Posted[];
/** What POST /api/merchant/exports answers (a created task unless a test says otherwise). */
let createAnswer: () => Response;

beforeEach(async () => {
  await changeLanguage('en');
  posts = [];
  createAnswer = () => json({ data: task(99, { status: 'waiting' }) }, 201);
  document.cookie = 'XSRF-TOKEN=test-token';
  const posted = async (request: Request) =>
    posts.push({ url: new URL(request.url).pathname, body: await request.json().catch(() => undefined) });
  server.use(
    http.post('/api/merchant/exports', async ({ request }) => {
      await posted(request);
      return createAnswer();
    }),
    http.post('/api/merchant/exports/:id/retry', async ({ request, params }) => {
      await posted(request);
      return json({ data: task(Number(params.id), { status: 'waiting', error: null }) });
    }),
    http.get('/api/merchant/exports', () => {
      const body: ExportListResponse = { data: tasks, meta: { page: 1, per_page: 20, total: tasks.length } };
      return json(body);
    }),
  );
});

function renderAt(at: string, role: Role = 'FINANCE') {
  signInAs({ roles: [role], perms: permsFor([role]) });
  return renderRoute(ExportsPage, {
    path: '/lineExport',
    at,
    routes: [
      {
        path: '/fund/fundWater',
        Component: () => (
          <ExportButton kind="fund_flows" filters={{ type: 'recharge', page: 3, cursor: 'x' }} />
        ),
      },
    ],
  }).router;
}

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
      apiError(
        429,
        'too_many_exports',
        'You already have 10 exports waiting. Please wait for one to finish, then export again.',
      );
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
