import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { modeQueryKeyHash } from '../lib/query-client.ts';

type RenderRouteOptions = {
  /** The route's path pattern (default: the first entry's path). */
  path?: string;
  /** Where the memory router starts (default: `path`). */
  at?: string;
  /** More routes beside the page's (where its links lead). */
  routes?: RouteObject[];
  /** Stand-ins for the pages its links lead to: each path shows these words. */
  pages?: Record<string, string>;
};

/**
 * A page as the console mounts it (the query client without retries, antd's App for messages and modals,
 * a memory router), for tests. Answers the router, so a test can see where the page navigated.
 */
export function renderRoute(
  Page: ComponentType,
  { path = '/', at = path, routes = [], pages = {} }: RenderRouteOptions = {},
) {
  const client = new QueryClient({
    // The console's hashing: every answer belongs to the mode it was read in.
    defaultOptions: {
      queries: { retry: false, queryKeyHashFn: modeQueryKeyHash },
      mutations: { retry: false },
    },
  });
  const standIns = Object.entries(pages).map(([pagePath, words]) => ({
    path: pagePath,
    Component: () => <p>{words}</p>,
  }));
  const router = createMemoryRouter([{ path, Component: Page }, ...routes, ...standIns], {
    initialEntries: [at],
  });
  const view = render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
  return { ...view, router, client };
}

/** A component (not a page) inside the same providers, without a router. */
export function renderWithProviders(ui: ReactNode) {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: false, queryKeyHashFn: modeQueryKeyHash },
      mutations: { retry: false },
    },
  });
  const view = render(
    <QueryClientProvider client={client}>
      <App>{ui}</App>
    </QueryClientProvider>,
  );
  return { ...view, client };
}

/** The user, typing and clicking without a pause between keys. */
export const typist = () => userEvent.setup({ delay: null });
