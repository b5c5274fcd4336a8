import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { loadAntdLocale } from '../i18n/antd-locale.ts';
import { currentLanguage, loadLayoutTexts } from '../i18n/index.ts';
import { resetSession } from '../lib/auth/session.ts';
import { guardPage, redirectGroup, requireUser } from './guard.ts';
import { HydrateFallback, RootShell, type RouteHandle } from './root-shell.tsx';
import { PageLoadFailed, RouteError } from './route-error.tsx';
import { DASHBOARD_PATH, PAGE_ROUTES, type PageRoute, ROUTE_GROUPS } from './routes.ts';

/**
 * A route's page, loaded on demand. A chunk that fails to load (a deploy in between, the network gone)
 * shows the offer to reload: React Router would otherwise take the route for still loading and show
 * nothing at all.
 */
const component = (load: () => Promise<{ default: ComponentType }>) => async () => {
  try {
    return { Component: (await load()).default };
  } catch (error) {
    console.error(error);
    return { Component: PageLoadFailed };
  }
};

/** A live-only page (top-ups, withdrawals): what it shows in test mode loads with it, not in the entry. */
const liveOnlyPage = (route: PageRoute) => async () => {
  const [page, { liveOnly }] = await Promise.all([route.load(), import('../components/live-only.tsx')]);
  return { default: liveOnly(page.default, route.titleKey) };
};

// Routes that only redirect (their loader throws) render nothing; saying so keeps React Router quiet.
const RedirectOnly = () => null;

const errorPage = (status: 401 | 403 | 404): RouteObject => ({
  path: `/${status}`,
  handle: { titleKey: `routes:page${status}` } satisfies RouteHandle,
  lazy: component(async () => {
    const { ErrorPage } = await import('../features/errors/pages/error-page.tsx');
    return { default: () => <ErrorPage status={status} /> };
  }),
});

/** The spec's routes (section 2): every page loaded on demand, the guard before every page of the layout. */
export const appRoutes: RouteObject[] = [
  {
    Component: RootShell,
    HydrateFallback,
    ErrorBoundary: RouteError,
    children: [
      {
        path: '/login',
        handle: { titleKey: 'routes:login' } satisfies RouteHandle,
        lazy: component(() => import('../features/auth/pages/login-page.tsx')),
      },
      {
        // DESIGN 16: an invited colleague sets a password (public, as the login page).
        path: '/invite/:token',
        handle: { titleKey: 'routes:invitation' } satisfies RouteHandle,
        // Whoever was signed in on this browser before, nothing of theirs stays cached; cleared before the
        // page asks for its invitation (clearing under a query in flight left the page waiting for ever).
        loader: () => {
          resetSession();
          return null;
        },
        lazy: component(() => import('../features/auth/pages/invitation-page.tsx')),
      },
      errorPage(401),
      errorPage(403),
      errorPage(404),
      {
        path: '/',
        // The layout waits for its texts and antd's in the user's language, so its pages never flash
        // English or a key.
        lazy: component(async () => {
          const [layout] = await Promise.all([
            import('../layout/app-layout.tsx'),
            loadAntdLocale(currentLanguage()),
            loadLayoutTexts(),
          ]);
          return layout;
        }),
        children: [
          { index: true, loader: () => redirect(DASHBOARD_PATH), Component: RedirectOnly },
          {
            // /redirect/<path>: the tags view's refresh goes through here so the page mounts afresh.
            path: '/redirect/*',
            loader: async ({ request }) => {
              await requireUser(request);
              return null;
            },
            lazy: component(() => import('./redirect-page.tsx')),
          },
          ...PAGE_ROUTES.map((route): RouteObject => ({
            path: route.path,
            loader: guardPage(route),
            lazy: component(route.liveOnly ? liveOnlyPage(route) : route.load),
            ErrorBoundary: RouteError,
            handle: {
              titleKey: route.titleKey,
              path: route.path,
              affix: route.affix,
              hidden: route.hidden,
              keepAlive: route.keepAlive,
            } satisfies RouteHandle,
          })),
          ...ROUTE_GROUPS.map((group): RouteObject => ({
            path: group.path,
            loader: redirectGroup(group),
            Component: RedirectOnly,
          })),
        ],
      },
      { path: '*', loader: () => redirect('/404'), Component: RedirectOnly },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);
