import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ListMeta } from '@paydesk/shared/pagination.ts';
import type { TableColumn } from '../table.tsx';

/** A list's filters: ListQuerySchema (or CursorListQuerySchema) extended in packages/shared. */
export type ListFilterSchema = z.ZodType<
  { page: number; per_page: number; cursor?: string } & Record<string, unknown>
>;

/**
 * One page of a list as the server answers it; next_cursor when the list pages by position. The sums are
 * the list's own shape (amounts as decimal strings, counts as numbers); only its ListSum renderers read them.
 */
export type ListResponse<Row> = {
  data: Row[];
  meta: Omit<ListMeta, 'sums'> & { sums?: object; next_cursor?: string | null };
};

/** A column of a list page: the table's column (components/table.tsx), titled by a text. */
export type ListColumn<Row> = TableColumn<Row> & { title: string };

/** A field of the filter bar, bound to the filter(s) of the URL it sets. */
export type FilterField<Name extends string> =
  | { kind: 'text'; name: Name; label: string; placeholder: string; width?: number }
  | {
      kind: 'select';
      name: Name;
      label: string;
      placeholder: string;
      width?: number;
      options: { value: string; label: string }[];
    }
  /** Date and time from/to (sent as "YYYY-MM-DD HH:mm:ss", read in the user's zone). */
  | { kind: 'timeRange'; from: Name; to: Name; label: string; placeholder: [string, string] }
  /** Dates from/to ("YYYY-MM-DD"). */
  | { kind: 'dateRange'; from: Name; to: Name; label: string; placeholder: [string, string] };

/** One figure of the filter's sums (the whole filter, not just this page). */
export type ListSum<Meta> = { key: string; label: string; render: (meta: Meta) => ReactNode };

export type ListQueryHook<Filters, Response> = (
  filters: Filters,
) => Pick<UseQueryResult<Response>, 'data' | 'isFetching'>;
