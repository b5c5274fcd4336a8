import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import type { RouteHandle } from '../app/root-shell.tsx';
import { canOpen } from '../app/route-access.ts';
import { groupOf, PAGE_ROUTES } from '../app/routes.ts';
import { setActiveTop } from '../stores/app-settings.ts';
import { addView, initAffixViews, tagsView } from '../stores/tags-view.ts';

/** Every page opened becomes a tab; pinned pages the user may open come first. */
export function useTrackVisitedViews(perms: readonly string[]) {
  const location = useLocation();
  const matches = useMatches();
  useEffect(() => {
    const allowed = (path: string) => PAGE_ROUTES.some((r) => r.path === path && canOpen(r, perms));
    const stale = tagsView.get().views.filter((view) => !allowed(view.path));
    if (stale.length) tagsView.set({ views: tagsView.get().views.filter((view) => allowed(view.path)) });
    initAffixViews(
      PAGE_ROUTES.filter((route) => route.affix && canOpen(route, perms)).map((route) => ({
        path: route.path,
        fullPath: route.path,
        titleKey: route.titleKey,
        affix: true,
      })),
    );
  }, [perms]);
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  // Every navigation, not only a change of path: when a navigation away is overtaken by the next one
  // (close a tab, then open the same page again before the first navigation renders), the page is
  // rendered with the path it had, and its tab, closed meanwhile, must come back.
  useEffect(() => {
    if (!handle?.titleKey || handle.path !== location.pathname) return;
    addView({
      path: location.pathname,
      fullPath: location.pathname + location.search,
      titleKey: handle.titleKey,
      affix: Boolean(handle.affix),
    });
    setActiveTop(groupOf(location.pathname)?.path ?? location.pathname);
  }, [handle, location.pathname, location.search, location.key]);
}
