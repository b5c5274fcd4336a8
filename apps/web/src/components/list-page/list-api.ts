import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type CallbackEvent,
  ResendCallbackResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { http, type QueryValue } from '../../lib/http.ts';

/** An order's id in its path: a trade number, a settlement number, a fund flow's id. */
export type ListId = string | number;

/** The query hooks of one list's endpoints, made by listApi. */
export type ListApi<Query, Response, Detail> = {
  /** Every query of this list starts with it: invalidate it after a write that changes the list. */
  queryKey: readonly string[];
  useList: (query: Query) => UseQueryResult<Response>;
  /** GET <path>/{id}, when the list has a detail endpoint; a drawer without one shows the row it has. */
  useDetail?: (id: ListId | undefined) => UseQueryResult<Detail>;
  /** POST <path>/{id}/notify, then the detail is read again (its callbacks show the new attempt). */
  useResend?: () => UseMutationResult<CallbackEvent, Error, ListId>;
};

/**
 * One list's endpoints as query hooks (STYLE rule 8, one declaration rather than a file per call):
 * GET /api/merchant/<name> with the URL's filters (the previous page shown while the next loads), and, when their
 * schemas are given, GET /api/merchant/<name>/{id} and POST .../{id}/notify.
 */
export function listApi<ListSchema extends z.ZodType<{ data: object[] }>, Detail = never>(
  /** The list's name in its path, /api/merchant/<name> (`fund-flows`). */
  name: string,
  {
    schema,
    detail,
    notify = false,
    refetchInterval,
  }: {
    schema: ListSchema;
    /** The detail's answer schema (`{ data: ... }`). */
    detail?: z.ZodType<{ data: Detail }>;
    notify?: boolean;
    /** Read the list again every so many ms while it returns a number (a task still running). */
    refetchInterval?: (data: z.output<ListSchema> | undefined) => number | false;
  },
): ListApi<
  Record<string, QueryValue>,
  z.output<ListSchema>,
  // Without a detail endpoint, the drawer's detail is the row.
  [Detail] extends [never] ? z.output<ListSchema>['data'][number] : Detail
> {
  const key = ['merchant', name];
  const path = `/api/merchant/${name}`;
  const url = (id: ListId) => `${path}/${encodeURIComponent(id)}`;
  const detailKey = (id: ListId) => [...key, 'detail', id];
  const listOptions = (query: Record<string, QueryValue>) =>
    queryOptions({
      queryKey: [...key, 'list', query],
      queryFn: ({ signal }) => http.get(path, { signal, query, schema }),
      placeholderData: keepPreviousData,
      refetchInterval: refetchInterval && ((q) => refetchInterval(q.state.data)),
    });
  const detailSchema = detail;
  return {
    queryKey: key,
    useList: (query) => useQuery(listOptions(query)),
    useDetail: detailSchema
      ? (id) =>
          useQuery({
            queryKey: detailKey(id ?? ''),
            queryFn: ({ signal }) =>
              http.get(url(id ?? ''), { signal, schema: detailSchema }).then((r) => r.data),
            enabled: id !== undefined,
          })
      : undefined,
    useResend: notify
      ? () => {
          const queryClient = useQueryClient();
          return useMutation({
            mutationFn: (id: ListId) =>
              http
                .post(`${url(id)}/notify`, undefined, { schema: ResendCallbackResponseSchema })
                .then((r) => r.data),
            onSettled: (_event, _error, id) => queryClient.invalidateQueries({ queryKey: detailKey(id) }),
          });
        }
      : undefined,
  };
}
