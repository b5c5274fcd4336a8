import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { appRoutes } from './router.tsx';

// Every page of the layout is its own chunk; a deploy in between or a dropped network fails its import.
vi.mock('../features/exports/pages/exports-page.tsx', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/exports-page-abc123.js');
});
// Signed in, allowed: the guard is not what is tested here.
vi.mock('./guard.ts', () => ({
  guardPage: () => async () => null,
  redirectGroup: () => async () => null,
  requireUser: async () => ({}),
}));
vi.mock('../layout/app-layout.tsx', async () => {
  const { Outlet } = await import('react-router');
  return { default: () => <Outlet /> };
});

beforeAll(async () => {
  await changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('a page whose chunk fails to load', () => {
  it('says so and offers a reload, which reloads the browser page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter(appRoutes, { initialEntries: ['/lineExport'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByText('This page could not be loaded')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    // Worth seeing in the console.
    expect(logged).toHaveBeenCalled();
  });
});
