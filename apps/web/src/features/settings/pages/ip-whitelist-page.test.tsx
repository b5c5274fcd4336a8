import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findPageRoute } from '../../../app/routes.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { resetHttpStateForTests } from '../../../lib/http.ts';

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

beforeEach(() => {
  resetHttpStateForTests();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/merchant/ip-address') return json(200, { data: { ips: ['203.0.113.0/24'] } });
      return json(500, { message: 'Server Error', code: 'server_error' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

async function renderRoute(path: string) {
  const { default: Page } = await findPageRoute(path)!.load();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path, Component: Page }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
}

describe('Settings > IP whitelist, a page of its own (spec section 2)', () => {
  it('is opened with ip-whitelist:manage and shows the whitelist form under its own title', async () => {
    await changeLanguage('en');
    expect(findPageRoute('/setting/ipWhitelist')?.perm).toBe('ip-whitelist:manage');
    await renderRoute('/setting/ipWhitelist');
    expect(await screen.findByRole('heading', { name: 'IP whitelist', level: 4 })).toBeInTheDocument();
    const list = (await screen.findByRole('textbox', { name: 'Allowed addresses' })) as HTMLTextAreaElement;
    await waitFor(() => expect(list.value).toBe('203.0.113.0/24'));
  });

  it('has its title in Chinese', async () => {
    await changeLanguage('zh-cn');
    await renderRoute('/setting/ipWhitelist');
    expect(await screen.findByRole('heading', { name: 'IP 白名单', level: 4 })).toBeInTheDocument();
  });
});
