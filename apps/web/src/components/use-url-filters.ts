import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { QueryValue } from '../lib/http.ts';

type FilterSchema = z.ZodType<Record<string, unknown>>;

/** Parse the URL's query with the list's schema (ListQuerySchema.extend(...)); bad values are dropped. */
export function parseFilters<S extends FilterSchema>(schema: S, params: URLSearchParams): z.output<S> {
  const raw: Record<string, string> = Object.fromEntries(params);
  const first = schema.safeParse(raw);
  if (first.success) return first.data;
  const invalid = new Set(first.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !invalid.has(key)));
  const second = schema.safeParse(kept);
  return second.success ? second.data : schema.parse({});
}

/**
 * A list's filters and page live in the URL, so a reload, a tab of the tags view or a shared link shows
 * the same page. Changing a filter goes back to page 1.
 */
export function useUrlFilters<S extends FilterSchema>(schema: S) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const filters = useMemo(() => parseFilters(schema, new URLSearchParams(search)), [schema, search]);

  const setFilters = useCallback(
    (patch: Record<string, QueryValue>) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined || value === null || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        if (!('page' in patch)) next.delete('page');
        return next;
      });
    },
    [setParams],
  );

  const resetFilters = useCallback(() => setParams(new URLSearchParams()), [setParams]);

  return { filters, setFilters, resetFilters };
}
