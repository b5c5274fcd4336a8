import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CursorListQuerySchema } from '@paydesk/shared/pagination.ts';
import { changeLanguage } from '../../i18n/index.ts';
import { ListPage } from './list-page.tsx';
import type { ListResponse } from './types.ts';

configure({ asyncUtilTimeout: 10_000 });

const ReportsQuery = CursorListQuerySchema.extend({
  status: z.enum(['open', 'closed']).optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
});
const NumberQuery = CursorListQuerySchema.extend({ no: z.string().optional() });
type Report = { no: string; status: 'open' | 'closed' };

beforeAll(async () => {
  await changeLanguage('en');
});

type Answer = { data: ListResponse<Report> | undefined; isFetching: boolean };

// The filter bar reads the signed-in user's time zone (the date range's today); there is no server here,
// so no user: the browser's zone.
const renderRouter = (router: Parameters<typeof RouterProvider>[0]['router']) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { enabled: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );

function renderList(path: string, answer: Answer) {
  const useReports = () => answer;
  const exported = vi.fn();
  function Reports() {
    return (
      <ListPage<Report, typeof ReportsQuery, ListResponse<Report>>
        title="Reports"
        name="reports"
        filters={ReportsQuery}
        useList={useReports}
        rowKey="no"
        columns={[
          { key: 'no', title: 'Number', render: (row) => row.no },
          { key: 'status', title: 'Status', render: (row) => row.status },
        ]}
        filterFields={[
          {
            kind: 'select',
            name: 'status',
            label: 'Status',
            placeholder: 'Any status',
            options: [
              { value: 'open', label: 'Open' },
              { value: 'closed', label: 'Closed' },
            ],
          },
          {
            kind: 'dateRange',
            from: 'start_date',
            to: 'end_date',
            label: 'Day',
            placeholder: ['From', 'To'],
          },
        ]}
        sums={[{ key: 'count', label: 'Reports', render: (meta) => meta.total }]}
        empty={{ none: 'Nothing yet', filtered: 'Nothing matches' }}
        renderExport={(filters) => (
          <button type="button" onClick={() => exported(filters)}>
            Export
          </button>
        )}
      />
    );
  }
  const router = createMemoryRouter([{ path: '/reports', Component: Reports }], { initialEntries: [path] });
  renderRouter(router);
  return { router, exported };
}

describe('the list kit', { timeout: 60_000 }, () => {
  it('hands the Export slot the filters of the URL, parsed by the list schema', async () => {
    const { exported } = renderList('/reports?status=closed&page=2&bogus=1', {
      data: { data: [{ no: 'R1', status: 'closed' }], meta: { page: 2, per_page: 20, total: 21 } },
      isFetching: false,
    });
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Export' }));
    expect(exported).toHaveBeenCalledWith({ page: 2, per_page: 20, status: 'closed' });
    expect(screen.getByTestId('reports-sums').textContent).toBe('Reports: 21');
  });

  it('writes a date range to the URL as two dates and shows no sums before the first answer', async () => {
    const { router } = renderList('/reports', { data: undefined, isFetching: true });
    expect(screen.queryByTestId('reports-sums')).not.toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByPlaceholderText('From'));
    await user.type(screen.getByPlaceholderText('From'), '2026-03-01{Enter}');
    await user.type(screen.getByPlaceholderText('To'), '2026-03-05{Enter}');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        start_date: '2026-03-01',
        end_date: '2026-03-05',
      }),
    );
  });

  it('empties what is typed on Reset, though the URL has no filter to clear', async () => {
    const { router } = renderList('/reports', { data: undefined, isFetching: false });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByPlaceholderText('From'), '2026-03-01');
    await user.type(screen.getByPlaceholderText('To'), '2026-03-05');
    await user.click(screen.getByRole('button', { name: /Reset/ }));
    await waitFor(() => expect(screen.getByPlaceholderText('From')).toHaveProperty('value', ''));
    expect(screen.getByPlaceholderText('To')).toHaveProperty('value', '');
    expect(router.state.location.search).toBe('');
  });

  it('keeps what is typed when the page renders again with a new field list (its labels from t())', async () => {
    let rerender: () => void = () => undefined;
    function Reports() {
      const [, setCount] = useState(0);
      rerender = () => setCount((count) => count + 1);
      return (
        <ListPage<Report, typeof NumberQuery, ListResponse<Report>>
          title="Reports"
          name="reports"
          filters={NumberQuery}
          useList={() => ({ data: undefined, isFetching: false })}
          rowKey="no"
          columns={[{ key: 'no', title: 'Number', render: (row) => row.no }]}
          filterFields={[{ kind: 'text', name: 'no', label: 'Number', placeholder: 'Any number' }]}
          empty={{ none: 'Nothing yet', filtered: 'Nothing matches' }}
        />
      );
    }
    const router = createMemoryRouter([{ path: '/reports', Component: Reports }], {
      initialEntries: ['/reports'],
    });
    renderRouter(router);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'R7');
    act(() => rerender());
    expect(screen.getByRole('textbox', { name: 'Number' })).toHaveProperty('value', 'R7');
  });
});
