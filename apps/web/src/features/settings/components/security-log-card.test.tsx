import { configure, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { http, json, server, signInAs } from '../../../test/server.ts';
import { SecurityLogCard } from './security-log-card.tsx';

configure({ asyncUtilTimeout: 10_000 });

beforeEach(async () => {
  await changeLanguage('en');
  signInAs({ perms: ['security:manage'], two_factor_enabled: false });
  server.use(
    http.get('/api/merchant/security-events', () =>
      json({
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
      }),
    ),
  );
});

describe('Settings > Security: the security log', { timeout: 60_000 }, () => {
  it("names the platform operator behind a top-up decision (the merchant's own users are named as before)", async () => {
    renderWithProviders(<SecurityLogCard />);
    const cell = await screen.findByText('Top-up rejected by an operator');
    const row = cell.closest('tr') as HTMLElement;
    expect(await within(row).findByText('Platform operator alice')).toBeInTheDocument();
  });
});
