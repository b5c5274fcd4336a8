import { OtherSessionsEndedSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/** DELETE /api/user/other-browser-sessions: every other session of the user ends (after a password confirmation). */
export const endOtherSessions = (): Promise<number> =>
  http
    .delete('/api/user/other-browser-sessions', undefined, { schema: OtherSessionsEndedSchema })
    .then((r) => r.data.ended);
