import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserMeta } from '@paydesk/shared/security/security.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { type Call, http, HttpResponse, json, server, signInAs } from '../../../test/server.ts';
import PaymentPasswordPage from './payment-password-page.tsx';

const META: UserMeta = {
  timezone: null,
  two_factor_enabled: true,
  two_factor_pending: false,
  two_factor_confirmed_at: '2024-05-01T00:00:00Z',
  payment_password_set: false,
  payment_locked_until: null,
  password_confirmed: false,
  password_confirmed_until: null,
};

let sent: Pick<Call, 'method' | 'url' | 'body'>[];

/** The user's meta, and `answer` to what the page sends (kept in `sent`). */
function serve(meta: UserMeta, answer: () => Response) {
  signInAs({
    name: 'Demo Finance',
    email: 'finance@demo.paydesk.test',
    roles: ['FINANCE'],
    perms: ['payment-password:manage'],
    timezone: null,
  });
  server.use(
    http.get('/api/user/meta', () => json({ data: meta })),
    http.all('/api/merchant/payment-password*', async ({ request }) => {
      const body: unknown = await request.json();
      sent.push({ method: request.method, url: new URL(request.url).pathname, body });
      return answer();
    }),
  );
}

const renderPage = () => renderRoute(PaymentPasswordPage);

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(async () => {
  await changeLanguage('en');
  sent = [];
});

describe('Settings > Payment password', { timeout: 60_000 }, () => {
  it('says the feature is not enabled, with the way to Security, while two-factor is off', async () => {
    serve({ ...META, two_factor_enabled: false }, () => new HttpResponse(null, { status: 500 }));
    renderPage();
    expect(await screen.findByText('This feature is not enabled yet')).toBeInTheDocument();
    expect(screen.getByRole('link')).toHaveAttribute('href', '/setting/accountSecurity');
  });

  it('checks the form with the spec messages before sending anything', async () => {
    serve(META, () => json({ data: { payment_password_set: true } }));
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('New payment password'), '12345');
    await user.type(screen.getByLabelText('Confirm payment password'), '12346');
    await user.type(screen.getByLabelText('Google code'), '12a');
    await user.click(screen.getByRole('button', { name: 'Set payment password' }));
    expect(await screen.findByText('Please enter the login password')).toBeInTheDocument();
    expect(screen.getByText('Payment password length cannot be less than 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Confirm password does not match password')).toBeInTheDocument();
    expect(screen.getByText('The Google code must be exactly 6 digits')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('sets it with the login password and a code, and shows server errors under their fields', async () => {
    let answer = () =>
      json(
        {
          message: 'The provided two factor authentication code was invalid.',
          code: 'invalid_code',
          errors: { code: ['The provided two factor authentication code was invalid.'] },
        },
        422,
      );
    serve(META, () => answer());
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Login password'), 'login-pass');
    await user.type(screen.getByLabelText('New payment password'), 'pay-123456');
    await user.type(screen.getByLabelText('Confirm payment password'), 'pay-123456');
    await user.type(screen.getByLabelText('Google code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Set payment password' }));
    expect(
      await screen.findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: '/api/merchant/payment-password',
        body: {
          password: 'login-pass',
          payment_password: 'pay-123456',
          payment_password_confirmation: 'pay-123456',
          code: '123456',
        },
      },
    ]);
    answer = () => json({ data: { payment_password_set: true } });
    await user.clear(screen.getByLabelText('Google code'));
    await user.type(screen.getByLabelText('Google code'), '654321');
    // jsdom never ends the motion of the first answer's spinner, which stays in the button's name.
    await user.click(screen.getByRole('button', { name: /Set payment password$/ }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(await screen.findByText('Payment password saved')).toBeInTheDocument();
  });

  it('asks for the current payment password once one is set, and shows the lock in Chinese', async () => {
    await changeLanguage('zh-cn');
    serve({ ...META, payment_password_set: true }, () =>
      HttpResponse.json(
        { message: 'Too many wrong payment passwords.', code: 'payment_locked' },
        { status: 423, headers: { 'retry-after': '1740' } },
      ),
    );
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('当前支付密码'), 'old-pay-1');
    await user.type(screen.getByLabelText('新支付密码'), 'new-pay-1');
    await user.type(screen.getByLabelText('确认支付密码'), 'new-pay-1');
    await user.type(screen.getByLabelText('谷歌验证码'), '123456');
    await user.click(screen.getByRole('button', { name: '修改支付密码' }));
    expect(
      await screen.findByText('支付密码错误次数过多，资金操作已锁定，请 29 分钟后再试。'),
    ).toBeInTheDocument();
    expect(sent[0].body).toMatchObject({ current_payment_password: 'old-pay-1' });
    expect(sent[0].body).not.toHaveProperty('password');
  });

  it('resets a forgotten one with the login password and a code, in Vietnamese', async () => {
    await changeLanguage('vi');
    serve({ ...META, payment_password_set: true }, () => json({ data: { payment_password_set: true } }));
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Quên mật khẩu thanh toán?' }));
    expect(screen.queryByLabelText('Mật khẩu thanh toán hiện tại')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Mật khẩu đăng nhập'), 'login-pass');
    await user.type(screen.getByLabelText('Mật khẩu thanh toán mới'), 'pay-654321');
    await user.type(screen.getByLabelText('Xác nhận mật khẩu thanh toán'), 'pay-654321');
    await user.type(screen.getByLabelText('Mã Google'), '123456');
    await user.click(screen.getByRole('button', { name: 'Đặt lại mật khẩu thanh toán' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          url: '/api/merchant/payment-password/reset',
          body: {
            password: 'login-pass',
            payment_password: 'pay-654321',
            payment_password_confirmation: 'pay-654321',
            code: '123456',
          },
        },
      ]),
    );
  });
});
