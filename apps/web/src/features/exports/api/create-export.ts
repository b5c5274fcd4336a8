import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CreateExportBody,
  type ExportTask,
  ExportTaskResponseSchema,
} from '@paydesk/shared/exports/exports.schemas.ts';
import { currentLanguage } from '../../../i18n/index.ts';
import { http } from '../../../lib/http.ts';
import { exportsQueryKey } from './get-exports.ts';

// Paging is the page's, not the export's: every matching row is exported.
const PAGING = new Set(['page', 'per_page', 'cursor']);

/**
 * POST /api/merchant/exports: a task for the list's current filters, in the console's language. A 429
 * (too_many_exports: 10 already wait) is the caller's to show, beside its Export button.
 */
export const createExport = ({ kind, format, filters = {} }: CreateExportBody): Promise<ExportTask> =>
  http
    .post(
      '/api/merchant/exports',
      {
        kind,
        format,
        filters: Object.fromEntries(
          Object.entries(filters).filter(
            ([key, value]) => !PAGING.has(key) && value !== undefined && value !== '',
          ),
        ),
        locale: currentLanguage(),
      },
      { schema: ExportTaskResponseSchema, handled: [429] },
    )
    .then((r) => r.data);

export function useCreateExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportsQueryKey }),
  });
}
