import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, recordCalls, server } from '../../../test/server.ts';
import InvitationPage from './invitation-page.tsx';

const INFO = {
  data: {
    merchant: { no: 'M100001', name: 'Demo Shop' },
    email: 'colleague@example.test',
    role: 'OPERATOR',
    expires_at: '2026-11-30T04:00:00.000Z',
  },
};

const open = (token = 'tok123') =>
  renderRoute(InvitationPage, {
    path: '/invite/:token',
    at: `/invite/${token}`,
    // The console's root, which opens the dashboard.
    routes: [{ path: '/', Component: () => <p>Dashboard reached</p> }],
  });

describe('the invitation page (/invite/:token)', { timeout: 60_000 }, () => {
  it('shows the merchant and address, sends the name and password, and enters the console', async () => {
    await changeLanguage('en');
    server.use(
      http.get('/api/auth/invitations/tok123', () => json(INFO)),
      http.post('/api/auth/invitations/tok123/accept', () => json({ two_factor: false })),
    );
    const calls = recordCalls();
    open();
    expect(await screen.findByTestId('invitation-summary', {}, { timeout: 10_000 })).toHaveTextContent(
      'You are invited to Demo Shop (M100001) as OPERATOR.',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('colleague@example.test');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your name'), 'Lan Nguyen');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    // The password rule is checked before anything is sent.
    expect(await screen.findByText('The password must be at least 8 characters')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByText('Dashboard reached')).toBeInTheDocument();
    const accept = calls.find((c) => c.path === '/api/auth/invitations/tok123/accept');
    expect(accept?.body).toEqual({
      name: 'Lan Nguyen',
      password: 'long-enough-1',
      password_confirmation: 'long-enough-1',
    });
  });

  it("an expired link says so in the reader's language, with no form", async () => {
    await changeLanguage('zh-cn');
    server.use(http.get('/api/auth/invitations/old', () => apiError(410, 'invitation_expired')));
    open('old');
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      '该邀请已过期。请联系管理员重新发送邀请。',
    );
    expect(screen.queryByRole('button', { name: '设置密码并登录' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '前往登录页' })).toHaveAttribute('href', '/login');
  });

  it('a link used meanwhile (410 on accept) shows the refusal instead of the form', async () => {
    await changeLanguage('en');
    server.use(
      http.get('/api/auth/invitations/tok123', () => json(INFO)),
      http.post('/api/auth/invitations/tok123/accept', () => apiError(410, 'invitation_used')),
    );
    open();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Your name', {}, { timeout: 10_000 }), 'Lan');
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(
      await screen.findByText(/This invitation has already been used/, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Your name')).not.toBeInTheDocument();
  });
});
