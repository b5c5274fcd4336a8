import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { resetHttpStateForTests } from '../../../lib/http.ts';
import { SecurityLogCard } from './security-log-card.tsx';

configure({ asyncUtilTimeout: 10_000 });

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ROOT = {
  id: 1,
  name: 'Demo Root',
  email: 'root@demo.paydesk.test',
  roles: ['ROOT'],
  perms: ['security:manage'],
  two_factor_enabled: false,
  timezone: '+08:00',
  merchant: { no: 'M100001', name: 'Demo Store', currency: 'CNY' },
};

beforeEach(async () => {
  await changeLanguage('en');
  resetHttpStateForTests();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/merchant/user') return json(200, { data: ROOT });
      if (url.startsWith('/api/merchant/security-events'))
        return json(200, {
          data: [
            {
              id: 2,
              type: 'topup_rejected',
              user: null,
              ip: null,
              browser: null,
              detail: { recharge_no: 'R1', operator: 'alice', reason: 'No transfer on chain' },
              created_at: '2026-03-01T00:30:00Z',
            },
          ],
          meta: { page: 1, per_page: 10, total: 1 },
        });
      return json(404, { message: 'Not found.' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('Settings > Security: the security log', { timeout: 60_000 }, () => {
  it("names the platform operator behind a top-up decision (the merchant's own users are named as before)", async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <App>
          <SecurityLogCard />
        </App>
      </QueryClientProvider>,
    );
    const cell = await screen.findByText('Top-up rejected by an operator');
    const row = cell.closest('tr') as HTMLElement;
    expect(await within(row).findByText('Platform operator alice')).toBeInTheDocument();
  });
});
