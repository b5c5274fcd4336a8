// The navigation guard (spec sections 2 and 6), run by the router before every navigation into the
// layout: a session, a trustworthy user, then the route's permission.
import { redirect } from 'react-router';
import i18n from '../i18n/index.ts';
import { type CurrentUser, currentUserQueryOptions } from '../lib/auth/get-current-user.ts';
import { logout } from '../lib/auth/logout.ts';
import { loginPathFor, resetSession } from '../lib/auth/session.ts';
import { feedback } from '../lib/feedback.ts';
import { hasSessionCookie, isHttpError } from '../lib/http.ts';
import { queryClient } from '../lib/query-client.ts';
import { adoptUserMode } from '../stores/mode.ts';
import { canOpen, groupRedirect } from './route-access.ts';
import type { PageRoute, RouteGroup } from './routes.ts';

const targetOf = (request: Request): string => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

export async function requireUser(request: Request): Promise<CurrentUser> {
  const toLogin = () => redirect(loginPathFor(targetOf(request)));
  // No XSRF cookie means no session was ever started in this browser (it lives and dies with one).
  if (!hasSessionCookie()) throw toLogin();
  try {
    // Retried (currentUserQueryOptions) when no answer came or the server failed.
    const user = await queryClient.ensureQueryData(currentUserQueryOptions());
    // Before any page asks for anything: its first call is already in the user's mode.
    adoptUserMode(user);
    return user;
  } catch (error) {
    if (isHttpError(error) && error.status === 401) throw toLogin();
    // User info the shared schema refuses (roles must be a non-empty array), or none after the retries
    // (spec section 2: generation failed): the token is reset and the user logs in again.
    if (isHttpError(error) && error.kind !== 'cancelled') {
      feedback().toast('error', i18n.t('errors:verificationFailed'));
      await logout();
      resetSession();
      throw toLogin();
    }
    throw error;
  }
}

/** Loader of a page of the layout: signed in, and allowed by the role table, else /403. */
export const guardPage =
  (route?: Pick<PageRoute, 'perm'>) =>
  async ({ request }: { request: Request }) => {
    const user = await requireUser(request);
    if (route && !canOpen(route, user.perms)) throw redirect('/403');
    return null;
  };

/** Loader of a group's own path (/recharge): its first page the user may open. */
export const redirectGroup =
  (group: RouteGroup) =>
  async ({ request }: { request: Request }) => {
    const user = await requireUser(request);
    const search = new URL(request.url).search;
    throw redirect(groupRedirect(group, user.perms) + search);
  };
