import { within } from '@testing-library/react';
import type { ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { http, json, server } from './server.ts';

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
