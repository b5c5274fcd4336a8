import { http, type RequestOptions } from '../../../lib/http.ts';

/** DELETE /api/user/other-browser-sessions: every other session of the user ends. 423 until confirmed. */
export const endOtherSessions = (options?: RequestOptions): Promise<number> =>
  http
    .delete<{ data: { ended: number } }>('/api/user/other-browser-sessions', undefined, options)
    .then((r) => r.data.ended);
