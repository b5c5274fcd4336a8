import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findPageRoute } from '../../../app/routes.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, recordCalls, server } from '../../../test/server.ts';

const member = (over: Record<string, unknown>) => ({
  user_id: 1,
  invitation_id: null,
  email: 'root@demo.test',
  name: 'Root',
  roles: ['ROOT'],
  status: 'active',
  two_factor_enabled: true,
  last_login_at: '2026-11-29T01:00:00.000Z',
  created_at: '2026-11-01T00:00:00.000Z',
  expires_at: null,
  is_self: true,
  ...over,
});

const TEAM = [
  member({}),
  member({
    user_id: 2,
    email: 'fin@demo.test',
    name: 'Fin',
    roles: ['FINANCE'],
    two_factor_enabled: false,
    is_self: false,
  }),
  member({
    user_id: null,
    invitation_id: 7,
    email: 'new@demo.test',
    name: null,
    roles: ['VIEWER'],
    status: 'invited',
    two_factor_enabled: false,
    last_login_at: null,
    expires_at: '2026-11-30T01:00:00.000Z',
    is_self: false,
  }),
];

async function renderPage() {
  const route = findPageRoute('/setting/team')!;
  const { default: Page } = await route.load();
  return renderRoute(Page, { path: '/setting/team' });
}

// A slow machine renders antd's dialogs slowly: these tests walk several of them.
describe('Settings > Team', { timeout: 60_000 }, () => {
  it('is ROOT-only (team:manage) and lists users and invitations with their status', async () => {
    await changeLanguage('en');
    expect(findPageRoute('/setting/team')?.perm).toBe('team:manage');
    server.use(http.get('/api/merchant/team', () => json({ data: TEAM })));
    await renderPage();
    const table = await screen.findByRole('table', { name: 'Users' }, { timeout: 10_000 });
    await within(table).findByText('fin@demo.test', {}, { timeout: 10_000 });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Root');
    expect(rows[1]).toHaveTextContent('You');
    expect(rows[1]).toHaveTextContent('Bound');
    expect(rows[2]).toHaveTextContent('Not bound');
    expect(rows[3]).toHaveTextContent('Invited');
    expect(rows[3]).toHaveTextContent('Never');
    // One's own row and an invitation have no actions.
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[3]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[2]).getByRole('button', { name: 'Manage fin@demo.test' })).toBeInTheDocument();
  });

  it('shows an empty state in Vietnamese', async () => {
    await changeLanguage('vi');
    server.use(http.get('/api/merchant/team', () => json({ data: [] })));
    await renderPage();
    expect(await screen.findByText('Chưa có người dùng')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Thành viên', level: 4 })).toBeInTheDocument();
  });

  it('invites with the email, role and both factors; an address in use shows under the email', async () => {
    await changeLanguage('en');
    let answer = apiError(409, 'email_taken');
    server.use(
      http.get('/api/merchant/team', () => json({ data: TEAM })),
      http.post('/api/merchant/team/invitations', () => answer),
    );
    const calls = recordCalls();
    await renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Invite user/ }, { timeout: 10_000 }));
    await screen.findByText('fin@demo.test', {}, { timeout: 10_000 });
    const dialog = await screen.findByRole('dialog', { name: 'Invite a user' });
    await user.type(within(dialog).getByLabelText('Email'), 'fin@demo.test');
    await user.type(within(dialog).getByLabelText('Payment password'), 'pay-secret');
    await user.type(within(dialog).getByLabelText('Google code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(dialog).findByText('This email is already used by another account.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/merchant/team/invitations')?.body).toEqual({
      email: 'fin@demo.test',
      role: 'VIEWER',
      payment_password: 'pay-secret',
      code: '123456',
    });
    answer = json({ data: TEAM[2] }, 201);
    await user.click(within(dialog).getByText('Send invitation'));
    expect(
      await screen.findByText('Invitation sent to new@demo.test', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('disabling the last ROOT shows the refusal in the dialog', async () => {
    await changeLanguage('en');
    server.use(
      http.get('/api/merchant/team', () => json({ data: TEAM })),
      http.post('/api/merchant/team/2/disable', () => apiError(409, 'last_root')),
    );
    await renderPage();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Manage fin@demo.test' }, { timeout: 10_000 }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable fin@demo.test' });
    expect(dialog).toHaveTextContent('signed out everywhere at once');
    await user.type(within(dialog).getByLabelText('Payment password'), 'pay-secret');
    await user.type(within(dialog).getByLabelText('Google code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(
      await within(dialog).findByText(
        /The last active ROOT user cannot be disabled/,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
  });
});
