import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserMeta } from '@paydesk/shared/security/security.schemas.ts';
import { PasswordPromptHost } from '../../../components/password-prompt-host.tsx';
import { changeLanguage } from '../../../i18n/index.ts';
import { setFeedback } from '../../../lib/feedback.ts';
import { dialogTitled } from '../../../test/antd.ts';
import { renderRoute } from '../../../test/render.tsx';
import { type Call, http, json, recordCalls, server, TEST_USER } from '../../../test/server.ts';
import AccountSecurityPage from './account-security-page.tsx';

const META: UserMeta = {
  timezone: null,
  two_factor_enabled: false,
  two_factor_pending: false,
  two_factor_confirmed_at: null,
  payment_password_set: false,
  payment_locked_until: null,
  password_confirmed: false,
  password_confirmed_until: null,
};
const USER = {
  ...TEST_USER,
  name: 'Demo Viewer',
  email: 'viewer@demo.paydesk.test',
  roles: ['VIEWER'],
  perms: ['security:manage'],
  two_factor_enabled: false,
  timezone: null,
};
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 8 }, (_, i) => `code${i}aaaaa-bbbbbbbbbb`);
const GOOD_RECOVERY_CODE = 'Abcdefghij-0123456789';
const NEW_CODES = Array.from({ length: 8 }, (_, i) => `new${i}aaaaaa-bbbbbbbbbb`);
const INVALID_CODE = {
  message: 'The provided two factor authentication code was invalid.',
  code: 'invalid_code',
  errors: { code: ['The provided two factor authentication code was invalid.'] },
};
const INVALID_RECOVERY_CODE = {
  message: 'The provided two factor recovery code was invalid.',
  code: 'invalid_recovery_code',
  errors: { recovery_code: ['The provided two factor recovery code was invalid.'] },
};
const CODE_REQUIRED = {
  message: 'The code field is required.',
  code: 'validation_failed',
  errors: { code: ['The code field is required.'] },
};
const PASSWORD_REQUIRED = {
  message: 'Password confirmation required.',
  code: 'password_confirmation_required',
};

let calls: Call[];
let meta: UserMeta;
let isConfirmed: boolean;
let user: typeof USER;
let securityEvents: unknown[];
/** What confirmed-password-status says, when it should disagree with the real state (a lapse in between). */
let statusSays: boolean | null;

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

/** The codes a request carries: in its JSON body, or in the query of a GET. */
const codesOf = async (request: Request): Promise<{ code?: string; recovery_code?: string }> =>
  request.method === 'GET'
    ? Object.fromEntries(new URL(request.url).searchParams)
    : (JSON.parse((await request.text()) || '{}') as { code?: string; recovery_code?: string });

const INVALID_PASSWORD = {
  message: 'The provided password was incorrect.',
  code: 'password_incorrect',
  errors: { password: ['The provided password was incorrect.'] },
};

beforeEach(async () => {
  await changeLanguage('en');
  calls = recordCalls();
  meta = META;
  isConfirmed = false;
  user = USER;
  securityEvents = [];
  statusSays = null;
  server.use(
    http.get('/api/user/meta', () => json({ data: meta })),
    http.get('/api/merchant/user', () => json({ data: user })),
    http.get('/api/user/sessions', () => json({ data: [] })),
    http.get('/api/merchant/security-events', () =>
      json({ data: securityEvents, meta: { page: 1, per_page: 10, total: securityEvents.length } }),
    ),
    http.get('/api/user/confirmed-password-status', () => json({ confirmed: statusSays ?? isConfirmed })),
    http.post('/api/user/confirm-password', async ({ request }) => {
      const isRight = (await request.text()).includes('paydesk-demo');
      isConfirmed ||= isRight;
      return isRight ? json('', 201) : json(INVALID_PASSWORD, 422);
    }),
    http.get('/api/merchant/two-factor-secret-key', () => {
      if (!isConfirmed) return json(PASSWORD_REQUIRED, 423);
      // As the server answers once the authenticator is confirmed: its secret is not shown again.
      if (meta.two_factor_enabled)
        return json(
          {
            message: 'Two-factor authentication is already confirmed; its secret is not shown again.',
            code: 'two_factor_already_confirmed',
          },
          404,
        );
      return json({
        data: { secretKey: SECRET, svg: '<svg></svg>', url: 'otpauth://totp/x', confirmed: false },
      });
    }),
    // A confirmed authenticator's recovery codes take its current code (246810 here) besides the password.
    http.all('/api/user/two-factor-recovery-codes', async ({ request }) => {
      if (!isConfirmed) return json(PASSWORD_REQUIRED, 423);
      const body = await codesOf(request);
      if (request.method === 'GET') {
        if (!body.code) return json(CODE_REQUIRED, 422);
        return body.code === '246810' ? json(CODES) : json(INVALID_CODE, 422);
      }
      if (body.code === '246810' || body.recovery_code === GOOD_RECOVERY_CODE) return json(NEW_CODES);
      if (body.recovery_code !== undefined) return json(INVALID_RECOVERY_CODE, 422);
      return json(body.code ? INVALID_CODE : CODE_REQUIRED, 422);
    }),
    http.post('/api/merchant/confirmed-two-factor-authentication', async ({ request }) =>
      (await request.text()).includes('246810')
        ? json({ data: { two_factor_enabled: true, recovery_codes: CODES } })
        : json(INVALID_CODE, 422),
    ),
    http.delete('/api/user/two-factor-authentication', async ({ request }) => {
      if (!isConfirmed) return json(PASSWORD_REQUIRED, 423);
      const body = await codesOf(request);
      if (body.code === '246810' || body.recovery_code === GOOD_RECOVERY_CODE) {
        meta = { ...META, two_factor_enabled: false };
        return json('');
      }
      return json(body.recovery_code !== undefined ? INVALID_RECOVERY_CODE : INVALID_CODE, 422);
    }),
  );
});

const renderPage = () =>
  renderRoute(() => (
    <>
      <AccountSecurityPage />
      <PasswordPromptHost />
    </>
  ));

// Dialog buttons are found by how their names end: jsdom never ends the motion of an earlier answer's
// spinner, which stays in the name.

// A whole guided flow through antd dialogs: slow in jsdom on a busy machine.
describe('Settings > Security: turning two-factor on', { timeout: 60_000 }, () => {
  it('confirms the password, shows the key, checks a code, then shows the recovery codes', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));

    // Not confirmed lately: the password dialog comes first, and a wrong password stays in it.
    const passwordDialog = await dialogTitled('Confirm your password');
    await user.type(within(passwordDialog).getByLabelText('Login password'), 'wrong');
    await user.click(within(passwordDialog).getByRole('button', { name: /Confirm$/ }));
    expect(await within(passwordDialog).findByText('The password is incorrect.')).toBeInTheDocument();
    await user.clear(within(passwordDialog).getByLabelText('Login password'));
    await user.type(within(passwordDialog).getByLabelText('Login password'), 'paydesk-demo');
    await user.click(within(passwordDialog).getByRole('button', { name: /Confirm$/ }));

    const setup = await dialogTitled('Set up two-factor authentication');
    expect(within(setup).getByTestId('two-factor-secret').textContent).toBe(
      SECRET.replace(/(.{4})(?=.)/g, '$1 '),
    );
    expect(within(setup).getByAltText('QR code for the authenticator app')).toBeInTheDocument();
    await user.click(within(setup).getByRole('button', { name: 'Next' }));

    await user.type(within(setup).getByLabelText('Verification code'), '12345');
    await user.click(within(setup).getByRole('button', { name: /Verify and turn on$/ }));
    expect(await within(setup).findByText('The Google code must be exactly 6 digits')).toBeInTheDocument();
    await user.clear(within(setup).getByLabelText('Verification code'));
    await user.type(within(setup).getByLabelText('Verification code'), '135790');
    await user.click(within(setup).getByRole('button', { name: /Verify and turn on$/ }));
    expect(
      await within(setup).findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();
    await user.clear(within(setup).getByLabelText('Verification code'));
    await user.type(within(setup).getByLabelText('Verification code'), '246810');
    await user.click(within(setup).getByRole('button', { name: /Verify and turn on$/ }));

    const list = await within(setup).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(within(setup).getByRole('button', { name: /Download \.txt/ })).toBeInTheDocument();
    // The codes are shown once: a click beside the dialog leaves them there.
    await user.click(setup.closest('.ant-modal-wrap')!);
    expect(within(setup).getByRole('list', { name: 'Recovery codes' })).toBeInTheDocument();
    await user.click(within(setup).getByRole('button', { name: 'I have saved them' }));
    // Closing refreshes the account state (two-factor now on).
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/user/meta')).toHaveLength(2));

    const posted = calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body]);
    expect(posted).toEqual([
      ['/api/user/confirm-password', { password: 'wrong' }],
      ['/api/user/confirm-password', { password: 'paydesk-demo' }],
      ['/api/merchant/confirmed-two-factor-authentication', { code: '135790' }],
      ['/api/merchant/confirmed-two-factor-authentication', { code: '246810' }],
    ]);
  });

  it('still asks for the password when the confirmation lapses between the check and the call', async () => {
    statusSays = true;
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));
    const passwordDialog = await dialogTitled('Confirm your password');
    await user.type(within(passwordDialog).getByLabelText('Login password'), 'paydesk-demo');
    await user.click(within(passwordDialog).getByRole('button', { name: /Confirm$/ }));
    const setup = await dialogTitled('Set up two-factor authentication');
    expect(within(setup).getByTestId('two-factor-secret')).toBeInTheDocument();
    const secretCalls = calls.filter((c) => c.url === '/api/merchant/two-factor-secret-key');
    expect(secretCalls).toHaveLength(2);
  });
});

describe('Settings > Security: turning two-factor off', { timeout: 60_000 }, () => {
  const deletes = () =>
    calls.filter((c) => c.method === 'DELETE' && c.url === '/api/user/two-factor-authentication');

  it('asks for the password, then a code (or a recovery code), showing each refusal under its field', async () => {
    meta = { ...META, two_factor_enabled: true };
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));

    const passwordDialog = await dialogTitled('Confirm your password');
    await user.type(within(passwordDialog).getByLabelText('Login password'), 'paydesk-demo');
    await user.click(within(passwordDialog).getByRole('button', { name: /Confirm$/ }));

    const dialog = await dialogTitled('Turn off two-factor authentication?');
    expect(dialog.textContent).toContain('not the responsibility of this product');
    expect(dialog.textContent).toContain('Every other device signed in to this account will be signed out.');
    const turnOff = () => user.click(within(dialog).getByRole('button', { name: /Turn off$/ }));

    // The password alone does not turn it off: the code is asked for before anything is sent.
    await turnOff();
    expect(await within(dialog).findByText('Please enter the verification code')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Verification code'), '12345');
    await turnOff();
    expect(await within(dialog).findByText('The Google code must be exactly 6 digits')).toBeInTheDocument();
    expect(deletes()).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Verification code'));
    await user.type(within(dialog).getByLabelText('Verification code'), '135790');
    await turnOff();
    expect(
      await within(dialog).findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();

    // Lost phone: a recovery code instead, as at sign-in.
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    expect(within(dialog).queryByLabelText('Verification code')).not.toBeInTheDocument();
    expect(dialog.textContent).toContain('Lost your phone?');
    await turnOff();
    expect(await within(dialog).findByText('Please enter a recovery code')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Recovery code'), 'not-a-code');
    await turnOff();
    expect(
      await within(dialog).findByText('The recovery code is invalid or has already been used.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Recovery code'));
    await user.type(within(dialog).getByLabelText('Recovery code'), GOOD_RECOVERY_CODE);
    await turnOff();

    expect(
      await screen.findByText('Two-factor authentication is off. Other devices have been signed out.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('two-factor-status').textContent).toContain('Off'));
    expect(deletes().map((c) => c.body)).toEqual([
      { code: '135790' },
      { recovery_code: 'not-a-code' },
      { recovery_code: GOOD_RECOVERY_CODE },
    ]);
    // The sessions list is read again: the other devices are gone.
    expect(calls.filter((c) => c.url === '/api/user/sessions').length).toBeGreaterThan(1);
  });

  it("speaks Chinese: the labels, the hint and the server's refusal under the field", async () => {
    await changeLanguage('zh-cn');
    meta = { ...META, two_factor_enabled: true };
    isConfirmed = true;
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '关 闭' }));
    const dialog = await dialogTitled('关闭双重认证？');
    expect(dialog.textContent).toContain('登录此账户的其他设备都将退出登录。');
    await user.type(within(dialog).getByLabelText('验证码'), '135790');
    await user.click(within(dialog).getByRole('button', { name: /关 闭$/ }));
    expect(await within(dialog).findByText('验证码无效或已被使用。')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '改用恢复码' }));
    expect(within(dialog).getByLabelText('恢复码')).toBeInTheDocument();
    // Cancelling sends nothing more and leaves two-factor on.
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));
    expect(deletes().map((c) => c.body)).toEqual([{ code: '135790' }]);
    expect(screen.getByTestId('two-factor-status').textContent).toContain('已开启');
  });
});

describe('Settings > Security: recovery codes of a confirmed authenticator', { timeout: 60_000 }, () => {
  const recoveryCalls = () =>
    calls
      .filter((c) => c.url.startsWith('/api/user/two-factor-recovery-codes'))
      .map((c) => [c.method, c.url, c.body]);
  const shownCodes = async () => {
    const dialog = await dialogTitled('Recovery codes');
    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    return within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
  };

  it('"Show recovery codes" asks for the password, then the current code, and shows a refusal under it', async () => {
    meta = { ...META, two_factor_enabled: true };
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Show recovery codes' }));

    const passwordDialog = await dialogTitled('Confirm your password');
    await user.type(within(passwordDialog).getByLabelText('Login password'), 'paydesk-demo');
    await user.click(within(passwordDialog).getByRole('button', { name: /Confirm$/ }));

    // The password alone shows nothing: the code is asked for before anything is sent.
    const dialog = await dialogTitled('Show recovery codes');
    expect(dialog.textContent).toContain('To see your recovery codes, enter the 6-digit code');
    const show = () => user.click(within(dialog).getByRole('button', { name: /Show codes$/ }));
    await show();
    expect(await within(dialog).findByText('Please enter the verification code')).toBeInTheDocument();
    // Reading them takes the authenticator's code only: no recovery code is offered here.
    expect(within(dialog).queryByRole('button', { name: 'Use a recovery code instead' })).toBeNull();
    expect(recoveryCalls()).toEqual([]);

    await user.type(within(dialog).getByLabelText('Verification code'), '135790');
    await show();
    expect(
      await within(dialog).findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Verification code'));
    await user.type(within(dialog).getByLabelText('Verification code'), '246810');
    await show();

    expect(await shownCodes()).toEqual(CODES);
    expect(recoveryCalls()).toEqual([
      ['GET', '/api/user/two-factor-recovery-codes?code=135790', undefined],
      ['GET', '/api/user/two-factor-recovery-codes?code=246810', undefined],
    ]);
  });

  it('"Regenerate" warns and takes the code or a recovery code, then shows the new codes from its answer', async () => {
    meta = { ...META, two_factor_enabled: true };
    isConfirmed = true;
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Regenerate recovery codes' }));

    const dialog = await dialogTitled('Regenerate recovery codes?');
    expect(dialog.textContent).toContain('The current recovery codes stop working at once.');
    const regenerate = () => user.click(within(dialog).getByRole('button', { name: /Regenerate$/ }));
    await regenerate();
    expect(await within(dialog).findByText('Please enter the verification code')).toBeInTheDocument();
    expect(recoveryCalls()).toEqual([]);
    await user.type(within(dialog).getByLabelText('Verification code'), '135790');
    await regenerate();
    expect(
      await within(dialog).findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    expect(dialog.textContent).toContain(
      'Lost your phone? Enter one of your current recovery codes instead.',
    );
    await user.type(within(dialog).getByLabelText('Recovery code'), 'not-a-code');
    await regenerate();
    expect(
      await within(dialog).findByText('The recovery code is invalid or has already been used.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Recovery code'));
    await user.type(within(dialog).getByLabelText('Recovery code'), GOOD_RECOVERY_CODE);
    await regenerate();

    expect(await shownCodes()).toEqual(NEW_CODES);
    expect(await screen.findByText('New recovery codes generated')).toBeInTheDocument();
    // The new codes come with the answer: no second code is asked to read them.
    expect(recoveryCalls()).toEqual([
      ['POST', '/api/user/two-factor-recovery-codes', { code: '135790' }],
      ['POST', '/api/user/two-factor-recovery-codes', { recovery_code: 'not-a-code' }],
      ['POST', '/api/user/two-factor-recovery-codes', { recovery_code: GOOD_RECOVERY_CODE }],
    ]);
  });

  it("speaks Chinese: the prompt, its hint and the server's refusal under the field", async () => {
    await changeLanguage('zh-cn');
    meta = { ...META, two_factor_enabled: true };
    isConfirmed = true;
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '查看恢复码' }));
    const dialog = await dialogTitled('查看恢复码');
    expect(dialog.textContent).toContain('如需查看恢复码，请输入身份验证器应用当前显示的 6 位验证码。');
    await user.type(within(dialog).getByLabelText('验证码'), '135790');
    await user.click(within(dialog).getByRole('button', { name: /查 看$/ }));
    expect(await within(dialog).findByText('验证码无效或已被使用。')).toBeInTheDocument();
    // Cancelling sends nothing more and shows no codes.
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));
    expect(recoveryCalls()).toEqual([['GET', '/api/user/two-factor-recovery-codes?code=135790', undefined]]);
    expect(screen.queryByRole('list', { name: '恢复码' })).toBeNull();
  });

  it('"Turn on" over an authenticator confirmed meanwhile (another tab) says so and shows it on', async () => {
    const alerts: string[] = [];
    setFeedback({ alert: (options) => alerts.push(options.content), confirm: () => {}, toast: () => {} });
    isConfirmed = true;
    renderPage();
    const user = userEvent.setup({ delay: null });
    const turnOn = await screen.findByRole('button', { name: 'Turn on' });
    meta = { ...META, two_factor_enabled: true };
    await user.click(turnOn);
    await waitFor(() =>
      expect(alerts).toEqual(['Two-factor authentication is already on; its setup key is not shown again.']),
    );
    await waitFor(() => expect(screen.getByTestId('two-factor-status').textContent).toContain('On'));
    expect(
      screen.queryByText('Set up two-factor authentication', { selector: '.ant-modal-title' }),
    ).toBeNull();
  });
});

describe('Settings > Security: the security log', { timeout: 60_000 }, () => {
  it("names the platform operator of a withdrawal's review (ROOT sees every user's events)", async () => {
    user = { ...USER, roles: ['ROOT'] };
    securityEvents = [
      {
        id: 2,
        type: 'withdrawal_rejected',
        user: null,
        ip: null,
        browser: null,
        detail: { withdrawal_no: 'W1', operator: 'alice', reason: 'Wallet not verified' },
        created_at: '2026-03-01T00:30:00Z',
      },
      {
        id: 1,
        type: 'withdrawal_requested',
        user: { id: 1, name: 'Demo Root', email: 'root@demo.paydesk.test' },
        ip: '127.0.0.1',
        browser: 'Chrome 130',
        detail: { withdrawal_no: 'W1' },
        created_at: '2026-03-01T00:20:00Z',
      },
    ];
    renderPage();
    expect(await screen.findByText('Withdrawal rejected')).toBeInTheDocument();
    expect(screen.getByText('Platform operator alice')).toBeInTheDocument();
    expect(screen.getByText('Withdrawal requested')).toBeInTheDocument();
    expect(screen.getByText('Demo Root (root@demo.paydesk.test)')).toBeInTheDocument();
  });
});
