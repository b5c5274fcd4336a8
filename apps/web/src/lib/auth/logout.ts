import { http } from '../http.ts';

/**
 * POST /api/logout: the server ends the session and clears the cookies. A failure changes nothing for
 * the user, who is signed out here anyway. The login page forgets the session (resetSession) when it
 * mounts, once the pages that used it are gone: cleared under them, their queries would fetch again.
 */
export async function logout(): Promise<void> {
  await http.post('/api/logout', undefined, { handled: 'all' }).catch(() => undefined);
}
