import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MarkNotificationsReadBody,
  Notification,
  NotificationListResponse,
} from '@paydesk/shared/notifications/notifications.schemas.ts';
import { http } from '../../lib/http.ts';

export type { Notification };

// The header bell (DESIGN 16): the user's own notifications, the same in both modes (query-client.ts).

export const notificationsQueryKey = ['notifications'] as const;
export const unreadQueryKey = [...notificationsQueryKey, 'unread'] as const;
export const notificationListQueryKey = [...notificationsQueryKey, 'list'] as const;

/** How often the badge asks for the unread count (and on window focus). */
export const UNREAD_POLL_MS = 60_000;
/** The newest notifications the bell lists. */
export const BELL_LIST_SIZE = 20;

// The shell loads no zod of its own: the schema loads while the request runs.
const listSchema = () =>
  import('@paydesk/shared/notifications/notifications.schemas.ts').then(
    (m) => m.NotificationListResponseSchema,
  );
const readSchema = () =>
  import('@paydesk/shared/notifications/notifications.schemas.ts').then(
    (m) => m.MarkNotificationsReadResponseSchema,
  );

const fetchPage = (limit: number, signal: AbortSignal): Promise<NotificationListResponse> =>
  // A background poll shows no dialog when it fails: the bell keeps its last count.
  http.get('/api/merchant/notifications', { query: { limit }, signal, handled: 'all', schema: listSchema() });

/** The badge's unread count, polled every minute and on focus. */
export const useUnreadCount = (): number | undefined =>
  useQuery<number>({
    queryKey: unreadQueryKey,
    queryFn: async ({ signal }) => (await fetchPage(1, signal)).meta.unread,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
  }).data;

/** The newest notifications, read when the bell opens; their count refreshes the badge too. */
export function useNotificationList(enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: notificationListQueryKey,
    enabled,
    queryFn: async ({ signal }) => {
      const page = await fetchPage(BELL_LIST_SIZE, signal);
      queryClient.setQueryData(unreadQueryKey, page.meta.unread);
      return page.data;
    },
  });
}

/** Marks these (or all) read; the badge takes the server's new count, the list its read marks. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkNotificationsReadBody) =>
      http.post('/api/merchant/notifications/read', body, { schema: readSchema() }).then((r) => r.data),
    onSuccess: ({ unread }, body) => {
      queryClient.setQueryData(unreadQueryKey, unread);
      const at = new Date().toISOString();
      queryClient.setQueryData<Notification[]>(notificationListQueryKey, (rows) =>
        rows?.map((row) =>
          row.read_at === null && ('all' in body || body.ids.includes(row.id))
            ? { ...row, read_at: at }
            : row,
        ),
      );
    },
  });
}
