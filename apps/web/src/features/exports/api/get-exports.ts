import {
  type ExportListResponse,
  ExportListResponseSchema,
} from '@paydesk/shared/exports/exports.schemas.ts';
import { listApi } from '../../../components/list-page/list-api.ts';
import { currentMode, type Mode } from '../../../stores/mode.ts';

/** How often the page reads again while a task waits or runs (its progress bar moves). */
export const EXPORT_POLL_MS = 2000;

const isRunning = (data: ExportListResponse | undefined) =>
  data?.data.some((task) => task.status === 'waiting' || task.status === 'exporting') ?? false;

/** GET /api/merchant/exports: the merchant's export tasks, newest first; polled while any is unfinished. */
export const exportsApi = listApi('exports', {
  schema: ExportListResponseSchema,
  refetchInterval: (data) => (isRunning(data) ? EXPORT_POLL_MS : false),
});

/** A new or retried export changes the list. */
export const exportsQueryKey = exportsApi.queryKey;

/**
 * Where a finished export is downloaded (a plain link: the server names the file). A link sends no X-Mode
 * header, so a test export's link says its mode in the query.
 */
export const exportDownloadUrl = (id: number, mode: Mode = currentMode()) =>
  `/api/merchant/exports/${id}/download${mode === 'test' ? '?mode=test' : ''}`;
