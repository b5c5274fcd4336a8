import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { FIRST_PAGE, type ListMock, shownRows, tableRows, urlFilters } from './list.ts';

// What the two order lists (collections, payouts: the kit's orderList) show alike, checked by their tests
// with each list's own cells, filters and words. Each list's number, merchant number, amount, fee and status
// come first, in that order.

type Router = Parameters<typeof urlFilters>[0];

/**
 * The list shows two orders, the first's cells from the start (`first`) and the second's from its status on
 * (`second`), and `sums` (the whole filter's) in its `<sumsId>` element.
 */
export async function expectOrdersAndSums(
  [first, second]: [string[], string[]],
  { sumsId, sums }: { sumsId: string; sums: string },
) {
  const [firstShown, secondShown] = await shownRows(2);
  expect(firstShown.slice(0, first.length)).toEqual(first);
  expect(secondShown.slice(4, 4 + second.length)).toEqual(second);
  expect(screen.getByTestId(sumsId).textContent).toBe(sums);
}

/** Renders the list at `at` (`render`'s router answered): its first request asks the first page with `filters`. */
export async function renderFiltered(
  api: Pick<ListMock<unknown, unknown>, 'firstQuery'>,
  render: (at: string) => Router,
  at: string,
  filters: Record<string, string>,
) {
  const router = render(at);
  expect(await api.firstQuery()).toEqual({ ...FIRST_PAGE, ...filters });
  return router;
}

/** After a search the URL holds `filters`, and the list's latest request asks their status. */
export async function expectSearched(
  api: Pick<ListMock<unknown, unknown>, 'lastQuery'>,
  router: Router,
  filters: Record<string, string>,
) {
  await waitFor(() => expect(urlFilters(router)).toEqual(filters));
  await waitFor(() => expect(api.lastQuery().status).toBe(filters.status));
}

/**
 * The list in another language: each row's `tags` (row by row), its filters' `placeholders`, its `sums` in
 * its `<sumsId>` element; then opens the status select, named `statusFilter`.
 */
export async function expectSpoken({
  tags,
  placeholders,
  sumsId,
  sums,
  statusFilter,
}: {
  tags: string[][];
  placeholders: string[];
  sumsId: string;
  sums: string;
  statusFilter: string;
}) {
  await waitFor(() => expect(tableRows()).toHaveLength(tags.length));
  tags.forEach((labels, row) => {
    for (const label of labels) expect(within(tableRows()[row]).getByText(label)).toBeInTheDocument();
  });
  for (const placeholder of placeholders)
    expect(screen.getByPlaceholderText(placeholder)).toBeInTheDocument();
  expect(screen.getByTestId(sumsId).textContent).toBe(sums);
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name: statusFilter }));
}
