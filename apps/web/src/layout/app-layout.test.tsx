import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RouteHandle } from '../app/root-shell.tsx';
import { findPageRoute } from '../app/routes.ts';
import { loadAntdLocale } from '../i18n/antd-locale.ts';
import { changeLanguage } from '../i18n/index.ts';
import { currentUserQueryKey } from '../lib/auth/get-current-user.ts';
import { closeView, resetViews } from '../stores/tags-view.ts';
import AppLayout from './app-layout.tsx';

const USER = {
  id: 1,
  name: 'Demo Root',
  email: 'root@demo.paydesk.test',
  roles: ['ROOT'],
  perms: ['dashboard:view', 'payout:create', 'withdrawal:create', 'export:view'],
  two_factor_enabled: true,
  timezone: null,
  merchant: { no: 'M100001', name: 'Demo Store', currency: 'CNY' },
};

/** A half-filled form: what the user typed lives in the page's own state. */
function FormPage({ label }: { label: string }) {
  const [value, setValue] = useState('');
  const { search } = useLocation();
  return (
    <label>
      {label}
      <input value={value} onChange={(event) => setValue(event.target.value)} data-search={search} />
    </label>
  );
}

/** A page that polls while it is shown. */
function PollingPage() {
  const { data } = useQuery({ queryKey: ['polling'], queryFn: () => 'polled', refetchInterval: 1000 });
  return <p>Exports {data}</p>;
}

const page = (path: string, Component: () => React.ReactNode) => {
  const route = findPageRoute(path)!;
  return {
    path,
    Component,
    handle: {
      titleKey: route.titleKey,
      path,
      affix: route.affix,
      keepAlive: route.keepAlive,
    } satisfies RouteHandle,
  };
};

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { selector: 'input' });
/** React's <Activity> hides a page kept alive with display: none. */
const isShown = (element: HTMLElement) => !element.closest('[style*="display: none"]');

async function renderLayout(initial: string, text: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserQueryKey, USER);
  const router = createMemoryRouter(
    [
      {
        path: '/',
        Component: AppLayout,
        children: [
          page('/dashboard', () => <FormPage label="Dashboard note" />),
          page('/behalfPay/apply', () => <FormPage label="Payout amount" />),
          page('/withdrawal/apply', () => <FormPage label="Withdrawal amount" />),
          page('/lineExport', PollingPage),
          { path: '/redirect/*', Component: () => null },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await screen.findByText(text);
  const go = (path: string) => act(() => router.navigate(path));
  return { router, client, go };
}

beforeAll(async () => {
  await changeLanguage('en');
  // As the router does before the layout renders: antd's texts arriving later would remount the page.
  await loadAntdLocale('en');
});
afterEach(() => resetViews());

describe('pages kept alive in the tags view', () => {
  it('keeps a half-filled form when the user switches to another tag and back', async () => {
    const { go } = await renderLayout('/behalfPay/apply', 'Payout amount');
    await userEvent.type(input('Payout amount'), '100.50');
    await go('/withdrawal/apply');
    await userEvent.type(input('Withdrawal amount'), '20');
    await go('/behalfPay/apply');
    expect(input('Payout amount').value).toBe('100.50');
    await go('/withdrawal/apply');
    expect(input('Withdrawal amount').value).toBe('20');
  });

  it('shows only the page of the current tag', async () => {
    const { go } = await renderLayout('/behalfPay/apply', 'Payout amount');
    await go('/withdrawal/apply?page=2');
    expect(isShown(input('Payout amount'))).toBe(false);
    expect(isShown(input('Withdrawal amount'))).toBe(true);
    // The hidden page keeps the location it was shown with, not the one of the page in front.
    expect(input('Payout amount').dataset.search).toBe('');
    expect(input('Withdrawal amount').dataset.search).toBe('?page=2');
  });

  it('does not keep the Dashboard alive', async () => {
    const { go } = await renderLayout('/dashboard', 'Dashboard note');
    await userEvent.type(input('Dashboard note'), 'draft');
    await go('/behalfPay/apply');
    await go('/dashboard');
    expect(input('Dashboard note').value).toBe('');
  });

  it('drops the state of a page whose tag was closed', async () => {
    const { go } = await renderLayout('/behalfPay/apply', 'Payout amount');
    await userEvent.type(input('Payout amount'), '100.50');
    await go('/withdrawal/apply');
    act(() => closeView('/behalfPay/apply'));
    expect(document.body.textContent).not.toContain('Payout amount');
    await go('/behalfPay/apply');
    expect(input('Payout amount').value).toBe('');
  });

  it('mounts the page afresh on the tag\'s "Refresh"', async () => {
    const { go } = await renderLayout('/behalfPay/apply', 'Payout amount');
    await userEvent.type(input('Payout amount'), '100.50');
    await go('/redirect/behalfPay/apply');
    await go('/behalfPay/apply');
    expect(input('Payout amount').value).toBe('');
  });

  it('a page in a tag not shown stops polling, and starts again when shown', async () => {
    const { go, client } = await renderLayout('/lineExport', 'Exports polled');
    const observers = () =>
      client
        .getQueryCache()
        .find({ queryKey: ['polling'] })!
        .getObserversCount();
    expect(observers()).toBe(1);
    await go('/withdrawal/apply');
    expect(observers()).toBe(0);
    await go('/lineExport');
    expect(observers()).toBe(1);
  });
});
