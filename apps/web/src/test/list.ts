import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, expect } from 'vitest';
import type { ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { changeLanguage } from '../i18n/index.ts';
import { type Call, http, json, recordCalls, server, signInAs, type TEST_USER } from './server.ts';

/** The page's own requests (the list pages' tests call it in beforeEach). */
export { type Call, recordCalls } from './server.ts';

// Helpers for the list pages' tests (the list kit, components/list-page/): what the page asked the mock
// API, the table's rows and cells, the open select's options.

/** The signed-in user for this test: TEST_USER (ROOT, CNY, +08:00) with these changes. */
export { signInAs } from './server.ts';

/** A table's rows (not its header or its empty row): the list's, or those of a table inside `scope`. */
export const tableRows = (scope: HTMLElement = document.body) =>
  within(scope)
    .getAllByRole('row')
    .filter((row) => row.classList.contains('data-table__row'));

/** A row's cells as the user reads them. */
export const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

/** The options of the open select, top to bottom. */
export const selectOptions = () =>
  [...document.querySelectorAll('.ant-select-item-option')].map((option) => option.getAttribute('title'));

/** An export task as GET /api/merchant/exports lists it: a finished CSV of fund flows unless changed. */
export const exportTask = (id: number, changes: Partial<ExportTask> = {}): ExportTask => ({
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
  ...changes,
});

export type Posted = { url: string; body: unknown };

/** The exports the page asks for (POST /api/merchant/exports), each answered with a waiting task. */
export function recordExports(): Posted[] {
  const posts: Posted[] = [];
  server.use(
    http.post('/api/merchant/exports', async ({ request }) => {
      posts.push({ url: new URL(request.url).pathname, body: await request.json() });
      return json({ data: exportTask(99, { status: 'waiting' }) }, 201);
    }),
  );
  return posts;
}

/** The filters the page wrote to its URL. */
export const urlFilters = (router: { state: { location: { search: string } } }) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));

/** A drawer's attempts on channels (its `<name>-attempts` section), row by row (without the header). */
export const channelAttemptRows = (section: HTMLElement, name = 'Channel attempts') =>
  within(within(section).getByRole('table', { name })).getAllByRole('row').slice(1).map(cellsOf);

/** The delivery attempts of a drawer's callbacks section, row by row (without the header). */
export const attemptRows = (callbacks: HTMLElement) =>
  within(within(callbacks).getByRole('table', { name: 'Attempts' }))
    .getAllByRole('row')
    .slice(1)
    .map(cellsOf);

/**
 * One page of a list as the API answers it: these rows, first page of 20, no next page, and the sums of the
 * whole filter (`meta` changes any of it).
 */
export const listAnswer = <Row, Meta extends object>(
  rows: Row[],
  meta: Meta,
): {
  data: Row[];
  meta: { page: number; per_page: number; total: number; next_cursor: string | null } & Meta;
} => ({
  data: rows,
  meta: { page: 1, per_page: 20, total: rows.length, next_cursor: null, ...meta },
});

/** The list's rows once it shows `count` of them, each as the user reads its cells. */
export async function shownRows(count: number, scope?: HTMLElement) {
  await waitFor(() => expect(tableRows(scope)).toHaveLength(count));
  return tableRows(scope).map(cellsOf);
}

/** What a list page's test sets and reads of the mock API (mockListApi). */
export type ListMock<List, Detail> = {
  /** The list's answer to the query the page sent. */
  list: (query: URLSearchParams) => List;
  /** The detail endpoint's answer (`data`) for the id the drawer asked. */
  detail: (id: string) => Detail;
  /** The answer to a Resend callback of the id. */
  notify: (id: string) => Response;
  /** The page's own requests since the test began (recordCalls({ page: true })). */
  requests: Call[];
  /** The exports it asked for (recordExports). */
  exports: Posted[];
  /** Its requests of the list itself. */
  listCalls: () => Call[];
  /** The query of the list's first request, once the page has sent it and no other (FIRST_PAGE and filters). */
  firstQuery: () => Promise<Record<string, string>>;
  /** The query of the list's latest request. */
  lastQuery: () => Record<string, string>;
};

/** What a list asks for its first page, before its filters. */
export const FIRST_PAGE = { page: '1', per_page: '20' } as const;

const unset = (what: string) => () => {
  throw new Error(`the test did not say what ${what} answers`);
};

/**
 * A list page's mock API for its tests, set up before each: English, `XSRF-TOKEN` set, the user as
 * TEST_USER with `user`'s changes, the page's calls and exports recorded, and `/api/merchant/<resource>`,
 * its `/:id` and `/:id/notify` answered by what the test gives the answer's `list`, `detail`, `notify`.
 */
export function mockListApi<List, Detail = never>(
  resource: string,
  user: Partial<typeof TEST_USER>,
): ListMock<List, Detail> {
  const path = `/api/merchant/${resource}`;
  const mock: ListMock<List, Detail> = {
    list: unset(path),
    detail: unset(`${path}/:id`),
    notify: unset(`${path}/:id/notify`),
    requests: [],
    exports: [],
    listCalls: () => mock.requests.filter((call) => call.path === path),
    firstQuery: async () => {
      await waitFor(() => expect(mock.listCalls()).toHaveLength(1));
      return Object.fromEntries(mock.listCalls()[0].query);
    },
    lastQuery: () => Object.fromEntries(mock.listCalls().at(-1)?.query ?? []),
  };
  beforeEach(async () => {
    await changeLanguage('en');
    document.cookie = 'XSRF-TOKEN=t';
    mock.requests = recordCalls({ page: true });
    mock.exports = recordExports();
    signInAs(user);
    server.use(
      http.get(path, ({ request }) => json(mock.list(new URL(request.url).searchParams))),
      http.get(`${path}/:id`, ({ params }) => json({ data: mock.detail(String(params.id)) })),
      http.post(`${path}/:id/notify`, ({ params }) => mock.notify(String(params.id))),
    );
  });
  return mock;
}

/** Opens the drawer of a row (the first) once the list shows `count` rows: the user who did and the drawer. */
export async function openDetails({ count = 1, row = 0, button = 'Details' } = {}) {
  await waitFor(() => expect(tableRows()).toHaveLength(count));
  const user = userEvent.setup({ delay: null });
  await user.click(within(tableRows()[row]).getByRole('button', { name: button }));
  return { user, drawer: await screen.findByRole('dialog') };
}

/** Picks `option` in the select labelled `select`, then presses Search. */
export async function chooseAndSearch(user: UserEvent, select: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: select }));
  await user.click(await screen.findByTitle(option));
  await user.click(screen.getByRole('button', { name: /Search/ }));
}

/**
 * Presses the drawer's Resend callback: the page sends that one request (POST `path`), reads the order again
 * and says so; answers the callbacks' attempts once there are `attempts` of them.
 */
export async function resendCallback(
  mock: Pick<ListMock<unknown, unknown>, 'requests'>,
  { user, drawer, callbacks }: { user: UserEvent; drawer: HTMLElement; callbacks: HTMLElement },
  { path, attempts }: { path: string; attempts: number },
) {
  await user.click(await within(drawer).findByRole('button', { name: /Resend callback/ }));
  await waitFor(() =>
    expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([expect.objectContaining({ path })]),
  );
  // The drawer reads the order again and shows the new attempt.
  await waitFor(() => expect(attemptRows(callbacks)).toHaveLength(attempts));
  expect(await screen.findByText('The callback has been queued again')).toBeInTheDocument();
  return attemptRows(callbacks);
}

/**
 * Exports what the list shows: its Export button, then the `format` offered; the page sends that one export
 * (POST /api/merchant/exports, recorded in `exports`), whose body this answers.
 */
export async function exportList(
  exports: Posted[],
  format: string,
  user: UserEvent = userEvent.setup({ delay: null }),
) {
  await user.click(await screen.findByTestId('export-button'));
  await user.click(await screen.findByText(format));
  await waitFor(() => expect(exports).toHaveLength(1));
  expect(exports[0].url).toBe('/api/merchant/exports');
  return exports[0].body;
}
