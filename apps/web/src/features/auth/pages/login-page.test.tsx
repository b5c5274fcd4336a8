import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { setFeedback } from '../../../lib/feedback.ts';
import { resetHttpStateForTests } from '../../../lib/http.ts';
import { queryClient } from '../../../lib/query-client.ts';
import LoginPage from './login-page.tsx';

type Call = { method: string; url: string; body: unknown };

let calls: Call[];
let answers: Record<string, Response[]>;

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function renderLogin(path = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', Component: LoginPage },
      { path: '*', Component: () => <p>arrived</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeAll(async () => {
  await changeLanguage('en');
});

beforeEach(() => {
  calls = [];
  answers = {};
  resetHttpStateForTests();
  setFeedback({ alert: vi.fn(), confirm: vi.fn(), toast: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body =
        init.body instanceof FormData
          ? Object.fromEntries(init.body)
          : init.body
            ? JSON.parse(String(init.body))
            : undefined;
      calls.push({ method, url, body });
      if (url === '/api/csrf-cookie') {
        document.cookie = 'XSRF-TOKEN=token; path=/';
        return new Response(null, { status: 204 });
      }
      const next = answers[`${method} ${url}`]?.shift();
      if (!next) throw new Error(`unexpected call ${method} ${url}`);
      return next;
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the login page', () => {
  it('sends the username as `email`, multipart, and goes to ?redirect= after login', async () => {
    answers['POST /api/login'] = [json(200, { two_factor: false })];
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
    answers['POST /api/login'] = [json(200, { two_factor: false })];
    const router = renderLogin('/login?redirect=%2F%2Fevil.example');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'a@b.c');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('arrived');
    expect(router.state.location.pathname).toBe('/');
  });

  it('with two-factor: the code step, its errors in place, then a recovery code', async () => {
    answers['POST /api/login'] = [json(200, { two_factor: true })];
    answers['POST /api/two-factor-challenge'] = [
      json(422, {
        message: 'The provided two factor authentication code was invalid.',
        code: 'invalid_code',
        errors: { code: ['The provided two factor authentication code was invalid.'] },
      }),
      json(422, {
        message: 'The provided two factor recovery code was invalid.',
        code: 'invalid_recovery_code',
        errors: { recovery_code: ['The provided two factor recovery code was invalid.'] },
      }),
      new Response(null, { status: 204 }),
    ];
    const router = renderLogin('/login?redirect=%2Fsetting%2FaccountSecurity');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'root@demo.paydesk.test');
    await user.type(screen.getByLabelText('Password'), 'paydesk-demo');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const code = await screen.findByLabelText('Authentication code');
    expect(router.state.location.pathname).toBe('/login');
    await user.type(code, '12a');
    expect(code).toHaveProperty('value', '12');
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
      answers['POST /api/login'] = [
        json(422, {
          message: 'These credentials do not match our records.',
          code: 'bad_credentials',
          errors: { email: ['These credentials do not match our records.'] },
        }),
      ];
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
    answers['POST /api/login'] = [
      new Response(
        JSON.stringify({
          message: 'Too many login attempts. Please try again in 42 seconds.',
          code: 'throttled',
        }),
        {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '42' },
        },
      ),
    ];
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
