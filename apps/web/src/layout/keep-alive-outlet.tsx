import { Activity, type ContextType, type ReactNode, useContext, useState } from 'react';
import { UNSAFE_LocationContext as LocationContext, useMatches, useOutlet } from 'react-router';
import type { RouteHandle } from '../app/root-shell.tsx';

type Kept = { element: ReactNode; location: ContextType<typeof LocationContext> };

const REDIRECT_PREFIX = '/redirect/';

/**
 * The layout's outlet with the tags view's keep-alive (spec section 2): a page whose tab is open keeps its
 * state (a half-filled form) while another tab is shown, hidden by React's <Activity>, which also ends its
 * effects, so a hidden page neither polls nor refetches until it is shown again. A page without a tab, one
 * marked `keepAlive: false` (the Dashboard) and one whose tab was closed or refreshed mount afresh.
 *
 * A hidden page keeps seeing the location it was shown with, not the page in front of it.
 */
export function KeepAliveOutlet({ tabs }: { tabs: readonly string[] }) {
  const outlet = useOutlet();
  const location = useContext(LocationContext);
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const { pathname } = location.location;
  const current =
    handle?.path === pathname && !handle.hidden && handle.keepAlive !== false ? pathname : undefined;

  // The pages kept, with what each showed last: its element and its location. Updated during render
  // (React's "adjusting state while rendering"), only when a page is opened again or a tab is gone.
  const [kept, setKept] = useState<ReadonlyMap<string, Kept>>(new Map());
  const isGone = (path: string) =>
    path !== current &&
    (!tabs.includes(path) ||
      (pathname.startsWith(REDIRECT_PREFIX) && pathname.slice(REDIRECT_PREFIX.length - 1) === path));
  let shown = kept;
  if ([...kept.keys()].some(isGone) || (current && kept.get(current)?.location !== location)) {
    const next = new Map([...kept].filter(([path]) => !isGone(path)));
    if (current) next.set(current, { element: outlet, location });
    shown = next;
    setKept(next);
  }

  return (
    <>
      {[...shown].map(([path, page]) => {
        const isCurrent = path === current;
        return (
          <Activity key={path} mode={isCurrent ? 'visible' : 'hidden'}>
            <LocationContext.Provider value={isCurrent ? location : page.location}>
              {isCurrent ? outlet : page.element}
            </LocationContext.Provider>
          </Activity>
        );
      })}
      {!current && outlet}
    </>
  );
}
