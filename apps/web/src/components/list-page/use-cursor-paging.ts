import { useCallback, useRef } from 'react';
import type { QueryValue } from '../../lib/http.ts';

type Paged = { page: number; per_page: number; cursor?: string };

/**
 * Paging by cursor: forward (or back to a page seen before) goes by the position of that page's first row
 * (the server's meta.next_cursor), so deep pages cost what the first does; a jump to an unseen page goes
 * by number. Lists without cursors page by number only.
 */
export function useCursorPaging(
  filters: Paged & Record<string, unknown>,
  nextCursor: string | null | undefined,
  setFilters: (patch: Record<string, QueryValue>) => void,
): (page: number, perPage: number) => void {
  const cursors = useRef(new Map<string, string | undefined>());
  // The filter the cursors belong to: everything but the page and the cursor itself.
  const filterKey = JSON.stringify(
    Object.entries(filters)
      .filter(([key]) => key !== 'page' && key !== 'cursor')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const { page: current, per_page: perPageNow, cursor } = filters;
  return useCallback(
    (page: number, perPage: number) => {
      if (perPage !== perPageNow) return setFilters({ page: 1, per_page: perPage, cursor: undefined });
      const pageKey = `${filterKey}:${page}`;
      if (page === current + 1 && nextCursor && !cursors.current.has(pageKey)) {
        cursors.current.set(pageKey, nextCursor);
      }
      if (cursor) cursors.current.set(`${filterKey}:${current}`, cursor);
      setFilters({ page, cursor: page === 1 ? undefined : cursors.current.get(pageKey) });
    },
    [current, cursor, filterKey, nextCursor, perPageNow, setFilters],
  );
}
