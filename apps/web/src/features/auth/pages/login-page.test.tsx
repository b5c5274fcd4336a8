import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { setFeedback } from '../../../lib/feedback.ts';
import { renderRoute } from '../../../test/render.tsx';
import { type Call, http, HttpResponse, json, recordCalls, server } from '../../../test/server.ts';
import LoginPage from './login-page.tsx';

let calls: Call[];

/** The answers to the next calls to `path`, one each, in order. */
const answer = (path: string, ...responses: Response[]) =>
  server.use(...responses.map((response) => http.post(path, () => response, { once: true })));

const renderLogin = (at = '/login') =>
  renderRoute(LoginPage, { path: '/login', at, routes: [{ path: '*', Component: () => <p>arrived</p> }] })
    .router;

beforeAll(async () => {
  await changeLanguage('en');
});

beforeEach(() => {
  setFeedback({ alert: vi.fn(), confirm: vi.fn(), toast: vi.fn() });
  calls = recordCalls();
});

describe('the login page', () => {
  it('sends the username as `email`, multipart, and goes to ?redirect= after login', async () => {
    answer('/api/login', json({ two_factor: false }));
    const router = renderLogin('/login?redirect=%2Ffund%2FfundWater%3Fpage%3D2');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'root@demo.paydesk.test');
    await user.type(screen.getByLabelText('Password'), 'paydesk-demo');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('arrived');
    expect(router.state.location.pathname + router.state.location.search).toBe('/fund/fundWater?page=2');
    const login = calls.find((call) => call.url === '/api/login')!;
    expect(login.body).toEqual({ email: 'root@demo.paydesk.test', password: 'paydesk-demo' });
  });

  it('never follows a redirect to another site', async () => {
    answer('/api/login', json({ two_factor: false }));
    const router = renderLogin('/login?redirect=%2F%2Fevil.example');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'a@b.c');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('arrived');
    expect(router.state.location.pathname).toBe('/');
  });

  it('with two-factor: the code step, its errors in place, then a recovery code', async () => {
    answer('/api/login', json({ two_factor: true }));
    answer(
      '/api/two-factor-challenge',
      json(
        {
          message: 'The provided two factor authentication code was invalid.',
          code: 'invalid_code',
          errors: { code: ['The provided two factor authentication code was invalid.'] },
        },
        422,
      ),
      json(
        {
          message: 'The provided two factor recovery code was invalid.',
          code: 'invalid_recovery_code',
          errors: { recovery_code: ['The provided two factor recovery code was invalid.'] },
        },
        422,
      ),
      new HttpResponse(null, { status: 204 }),
    );
    const router = renderLogin('/login?redirect=%2Fsetting%2FaccountSecurity');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'root@demo.paydesk.test');
    await user.type(screen.getByLabelText('Password'), 'paydesk-demo');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const code = await screen.findByLabelText('Authentication code');
    expect(router.state.location.pathname).toBe('/login');
    await user.type(code, '12a');
    expect(code).toHaveValue('12');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The verification code must be 6 digits',
    );
    expect(calls.filter((call) => call.url === '/api/two-factor-challenge')).toHaveLength(0);

    await user.type(code, '3456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The verification code is invalid or has already been used.',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const recovery = screen.getByLabelText('Recovery code');
    await user.type(recovery, 'wrong-code');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The recovery code is invalid or has already been used.',
      ),
    );
    await user.clear(recovery);
    await user.type(recovery, 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('arrived');
    expect(router.state.location.pathname).toBe('/setting/accountSecurity');

    const challenges = calls
      .filter((call) => call.url === '/api/two-factor-challenge')
      .map((call) => call.body);
    expect(challenges).toEqual([
      { code: '123456' },
      { recovery_code: 'wrong-code' },
      { recovery_code: 'abcde-fghij' },
    ]);
  });

  it('shows the refusal of the credentials under the username, in the page language', async () => {
    await changeLanguage('zh-cn');
    try {
      answer(
        '/api/login',
        json(
          {
            message: 'These credentials do not match our records.',
            code: 'bad_credentials',
            errors: { email: ['These credentials do not match our records.'] },
          },
          422,
        ),
      );
      renderLogin();
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('用户名'), 'root@demo.paydesk.test');
      await user.type(screen.getByLabelText('密码'), 'wrong');
      await user.click(screen.getByRole('button', { name: '登录' }));
      expect((await screen.findByRole('alert')).textContent).toBe('账号或密码错误。');
    } finally {
      await changeLanguage('en');
    }
  });

  it('tells a throttled user how long to wait', async () => {
    answer(
      '/api/login',
      HttpResponse.json(
        { message: 'Too many login attempts. Please try again in 42 seconds.', code: 'throttled' },
        { status: 429, headers: { 'retry-after': '42' } },
      ),
    );
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'root@demo.paydesk.test');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again in 42 seconds.',
    );
  });
});
