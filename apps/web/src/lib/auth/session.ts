import { forgetMode } from '../../stores/mode.ts';
import { resetViews } from '../../stores/tags-view.ts';
import { queryClient } from '../query-client.ts';

/** Forget everything this browser knew about the signed-in user: cached data, open tabs, their mode. */
export function resetSession(): void {
  queryClient.clear();
  resetViews();
  forgetMode();
}

/** A same-site path to return to after login; anything else (another origin, the login page) is home. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value === '/login' || value.startsWith('/login?')) return '/';
  return value;
}

export const loginPathFor = (target: string): string =>
  target === '/' || target === '' ? '/login' : `/login?redirect=${encodeURIComponent(target)}`;
