import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { closeView, resetViews, tagsView } from '../stores/tags-view.ts';
import { useTrackVisitedViews } from './use-visited-views.ts';

const PERMS = ['dashboard:view', 'collection:view', 'access-key:manage'];

function Layout() {
  useTrackVisitedViews(PERMS);
  return null;
}

const page = (path: string, titleKey: string) => ({ path, Component: Layout, handle: { path, titleKey } });

const tabPaths = () => tagsView.get().views.map((view) => view.path);

describe('the tags view follows navigation', () => {
  afterEach(() => resetViews());

  it('opens a tab per page, the Dashboard pinned first', () => {
    const router = createMemoryRouter(
      [page('/collection/payments', 'routes:payments'), page('/setting/interfaceKey', 'routes:interfaceKey')],
      { initialEntries: ['/collection/payments'] },
    );
    render(<RouterProvider router={router} />);
    expect(tabPaths()).toEqual(['/dashboard', '/collection/payments']);
    act(() => void router.navigate('/setting/interfaceKey?tab=ip'));
    expect(tagsView.get().views.at(-1)).toMatchObject({
      path: '/setting/interfaceKey',
      fullPath: '/setting/interfaceKey?tab=ip',
    });
  });

  it('brings back the tab of a page opened again after its tab closed, even at the same path', () => {
    // What the browser does when "Close others" navigates away and the menu opens the same page again
    // before that navigation renders: React renders the page at the path it already had.
    const router = createMemoryRouter([page('/setting/interfaceKey', 'routes:interfaceKey')], {
      initialEntries: ['/setting/interfaceKey'],
    });
    render(<RouterProvider router={router} />);
    expect(tabPaths()).toContain('/setting/interfaceKey');
    act(() => closeView('/setting/interfaceKey'));
    expect(tabPaths()).not.toContain('/setting/interfaceKey');
    act(() => void router.navigate('/setting/interfaceKey'));
    expect(tabPaths()).toEqual(['/dashboard', '/setting/interfaceKey']);
  });
});
