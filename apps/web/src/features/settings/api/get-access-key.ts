import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AccessKey, AccessKeyResponseSchema } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { http } from '../../../lib/http.ts';
import { type Mode, useMode } from '../../../stores/mode.ts';

export type { AccessKey };

export const accessKeyQueryKey = ['merchant', 'access-key'] as const;

export const accessKeyQueryOptions = (mode: Mode) =>
  queryOptions({
    queryKey: [...accessKeyQueryKey, mode],
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/access-key', { signal, query: { mode }, schema: AccessKeyResponseSchema })
        .then((r) => r.data),
  });

/**
 * GET /api/merchant/access-key?mode= (ROOT): the key of the console's mode (DESIGN 12: a live and a test
 * key, `live_` and `test_`) without its secrets, or null before one is issued.
 */
export const useAccessKey = () => useQuery(accessKeyQueryOptions(useMode()));
