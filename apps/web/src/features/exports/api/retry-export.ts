import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ExportTask, ExportTaskResponseSchema } from '@paydesk/shared/exports/exports.schemas.ts';
import { http } from '../../../lib/http.ts';
import { exportsQueryKey } from './get-exports.ts';

/** POST /api/merchant/exports/{id}/retry: a failed task waits again. */
export const retryExport = (id: number): Promise<ExportTask> =>
  http
    .post(`/api/merchant/exports/${id}/retry`, undefined, { schema: ExportTaskResponseSchema })
    .then((r) => r.data);

export function useRetryExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryExport,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportsQueryKey }),
  });
}
