import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';

export type RouteHandle = {
  titleKey?: string;
  path?: string;
  affix?: boolean;
  hidden?: boolean;
  keepAlive?: false;
};

/** A thin bar at the top while a navigation loads its page and runs the guard; never a spinner. */
export function LoadingBar({ active }: { active: boolean }) {
  const [isShown, setIsShown] = useState(active);
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    if (active) setIsShown(true);
  }
  const phase = active ? 'loading' : isShown ? 'done' : 'idle';
  return (
    <div
      className={`loading-bar loading-bar--${phase}`}
      data-testid="loading-bar"
      data-state={phase}
      aria-hidden="true"
      onTransitionEnd={(event) => {
        if (!active && event.propertyName === 'opacity') setIsShown(false);
      }}
    />
  );
}

function NavigationLoadingBar() {
  return <LoadingBar active={useNavigation().state !== 'idle'} />;
}

/** After a navigation the page starts at the top left (spec section 2). */
function ScrollToTopLeft() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelector('.app-main')?.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** The browser title follows the page, in the user's language. */
function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const titleKey = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.titleKey)
    ?.handle as RouteHandle | undefined;
  const appName = t('common:appName');
  const title = titleKey?.titleKey ? `${t(titleKey.titleKey)} - ${appName}` : appName;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

export function RootShell() {
  return (
    <>
      <NavigationLoadingBar />
      <ScrollToTopLeft />
      <DocumentTitle />
      <Outlet />
    </>
  );
}

export function HydrateFallback() {
  return <LoadingBar active />;
}
