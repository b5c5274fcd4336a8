import { resetViews } from '../../stores/tags-view.ts';
import { queryClient } from '../query-client.ts';

/** Forget everything this browser knew about the signed-in user: cached data and open tabs. */
export function resetSession(): void {
  queryClient.clear();
  resetViews();
}

/** A same-site path to return to after login; anything else (another origin, the login page) is home. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value === '/login' || value.startsWith('/login?')) return '/';
  return value;
}

export const loginPathFor = (target: string): string =>
  target === '/' || target === '' ? '/login' : `/login?redirect=${encodeURIComponent(target)}`;
