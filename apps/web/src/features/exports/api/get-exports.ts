import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type ExportListQuery,
  type ExportListResponse,
  ExportListResponseSchema,
} from '@paydesk/shared/exports/exports.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { ExportListQuery, ExportListResponse };

export const exportsQueryKey = ['merchant', 'exports'] as const;

/** How often the page reads again while a task waits or runs (its progress bar moves). */
export const EXPORT_POLL_MS = 2000;

const isRunning = (data: ExportListResponse | undefined) =>
  data?.data.some((task) => task.status === 'waiting' || task.status === 'exporting') ?? false;

/** GET /api/merchant/exports: the merchant's export tasks, newest first; polled while any is unfinished. */
export const exportsQueryOptions = (query: ExportListQuery) =>
  queryOptions({
    queryKey: [...exportsQueryKey, query],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/exports', { signal, query, schema: ExportListResponseSchema }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (isRunning(q.state.data) ? EXPORT_POLL_MS : false),
  });

export const useExports = (query: ExportListQuery) => useQuery(exportsQueryOptions(query));

/** Where a finished export is downloaded (a plain link: the server names the file). */
export const exportDownloadUrl = (id: number) => `/api/merchant/exports/${id}/download`;
