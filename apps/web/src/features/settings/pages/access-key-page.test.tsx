import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Activity, useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AccessKey } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { dialogTitled } from '../../../test/antd.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, fieldError, http, json, server, signInAs } from '../../../test/server.ts';
import AccessKeyPage from './access-key-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const KEY: AccessKey = {
  merchant_no: 'M100001',
  access_key: 'ak_live_1234',
  notify_url: 'https://shop.example/notify',
  created_at: '2026-03-01T00:30:00Z',
  rotated_at: null,
};
const SECRETS = { secret: 'sk_very_secret', webhook_secret: 'whsec_c2VjcmV0' };
const twoFactorRequired = () => apiError(400, 'two_factor_required', 'This feature is not enabled yet');

type Sent = { method: string; path: string; query: Record<string, string>; body: unknown };
let sent: Sent[];
let accessKey: AccessKey | null;
let ips: string[];
/** The answer to every call that is not a plain read of the page's data. */
let answer: (call: Sent) => Response;

beforeEach(async () => {
  await changeLanguage('en');
  sent = [];
  accessKey = KEY;
  ips = ['127.0.0.1', '203.0.113.0/24'];
  answer = () => apiError(500, 'server_error', 'Server Error');
  server.use(
    http.get('/api/merchant/access-key', () => json({ data: accessKey })),
    http.get('/api/merchant/ip-address', () => json({ data: { ips } })),
    // Anything else the page sends (the CSRF cookie aside, which the shared handler gives).
    http.all('/api/*', async ({ request }) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/csrf-cookie') return undefined;
      const text = await request.text();
      const call: Sent = {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text === '' ? undefined : JSON.parse(text),
      };
      sent.push(call);
      return answer(call);
    }),
  );
  // In front of the catch-all above.
  signInAs({ perms: ['access-key:manage', 'ip-whitelist:manage'] });
});

/** The page as the tags view keeps it alive: hidden by <Activity> while another tab is shown. */
function KeptAlive() {
  const [isShown, setIsShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setIsShown(!isShown)}>
        Switch tab
      </button>
      <Activity mode={isShown ? 'visible' : 'hidden'}>
        <AccessKeyPage />
      </Activity>
    </>
  );
}

const renderPage = ({ keptAlive = false } = {}) =>
  renderRoute(keptAlive ? KeptAlive : AccessKeyPage, {
    path: '/setting/interfaceKey',
    routes: [{ path: '/elsewhere', Component: () => <p>Another page</p> }],
  }).router;

const user = () => userEvent.setup({ delay: null });

/** The page itself, without its dialogs (antd keeps a closed dialog in the document under jsdom). */
const onPage = () => within(document.querySelector('.page-container') as HTMLElement);

/** On the loaded page: Reveal, both factors in its dialog, and Reveal there; the dialog. */
async function sendReveal(): Promise<HTMLElement> {
  await screen.findByTestId('access-key');
  const u = user();
  await u.click(onPage().getByRole('button', { name: /Reveal/ }));
  const dialog = await screen.findByRole('dialog');
  await fillStepUp(dialog);
  await u.click(within(dialog).getByRole('button', { name: 'Reveal' }));
  return dialog;
}

async function fillStepUp(scope: HTMLElement, password = 'pay-123456', code = '123456') {
  const u = user();
  await u.type(within(scope).getByLabelText('Payment password'), password);
  await u.type(within(scope).getByLabelText('Google code'), code);
}

describe('Settings > Access key', { timeout: 60_000 }, () => {
  it('shows the key with the secrets hidden, and the API reference in a new tab', async () => {
    renderPage();
    expect((await screen.findByTestId('access-key')).textContent).toBe('ak_live_1234');
    expect(screen.getByText('M100001')).toBeInTheDocument();
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');
    expect(screen.getByTestId('access-key-webhook-secret').textContent).not.toContain('whsec_');
    expect(screen.getByText('2026-03-01 08:30:00')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    const docs = screen.getByRole('link', { name: /API reference/ });
    expect(docs.getAttribute('href')).toBe('/gateway/docs');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('textbox', { name: 'Default notify URL' })).toHaveProperty(
      'value',
      'https://shop.example/notify',
    );
  });

  it('reveals the secrets with both factors, hides them on request and when leaving the page', async () => {
    answer = () => json({ data: SECRETS });
    const router = renderPage();
    await screen.findByTestId('access-key');
    const u = user();
    await u.click(onPage().getByRole('button', { name: /Reveal/ }));
    const dialog = await dialogTitled('Reveal the secrets');
    // Nothing goes out before both factors are there, and the code is six digits.
    await u.type(within(dialog).getByLabelText('Google code'), '12a');
    await u.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    expect(await within(dialog).findByText('Please enter the payment password')).toBeInTheDocument();
    expect(within(dialog).getByText('The Google code must be exactly 6 digits')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await u.clear(within(dialog).getByLabelText('Google code'));
    await fillStepUp(dialog, 'pay-123456', '654321');
    await u.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    await waitFor(() => expect(screen.getByTestId('access-key-secret').textContent).toBe('sk_very_secret'));
    expect(screen.getByTestId('access-key-webhook-secret').textContent).toBe('whsec_c2VjcmV0');
    expect(sent).toEqual([
      {
        method: 'GET',
        path: '/api/merchant/access-key/secret',
        query: { mode: 'live', payment_password: 'pay-123456', code: '654321' },
        body: undefined,
      },
    ]);
    expect(
      within(screen.getByTestId('access-key-secret')).getByRole('button', { name: /Copy/ }),
    ).toBeInTheDocument();

    await u.click(onPage().getByRole('button', { name: /Hide/ }));
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');

    // Revealed again, then the user leaves and comes back: hidden, and not asked for again.
    await u.click(onPage().getByRole('button', { name: /Reveal/ }));
    const again = await dialogTitled('Reveal the secrets');
    await fillStepUp(again);
    // Ends with: jsdom never ends the motion of the first reveal's spinner, which stays in the name.
    await u.click(within(again).getByRole('button', { name: /Reveal$/ }));
    await waitFor(() => expect(screen.getByTestId('access-key-secret').textContent).toBe('sk_very_secret'));
    await router.navigate('/elsewhere');
    await screen.findByText('Another page');
    await router.navigate('/setting/interfaceKey');
    await screen.findByTestId('access-key');
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');
    expect(sent.map((call) => call.query)).toEqual([
      { mode: 'live', payment_password: 'pay-123456', code: '654321' },
      { mode: 'live', payment_password: 'pay-123456', code: '123456' },
    ]);
  });

  it('hides the secrets when the user switches to another tab (the page kept alive)', async () => {
    answer = () => json({ data: SECRETS });
    renderPage({ keptAlive: true });
    await screen.findByTestId('access-key');
    const u = user();
    await u.click(onPage().getByRole('button', { name: /Reveal/ }));
    const dialog = await dialogTitled('Reveal the secrets');
    await fillStepUp(dialog);
    await u.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    await waitFor(() => expect(screen.getByTestId('access-key-secret').textContent).toBe('sk_very_secret'));
    await u.click(screen.getByRole('button', { name: 'Switch tab' }));
    expect(document.body.textContent).not.toContain('sk_very_secret');
    await u.click(screen.getByRole('button', { name: 'Switch tab' }));
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');
  });

  it('says the feature is not enabled, with the way to Security, when two-factor is off', async () => {
    answer = twoFactorRequired;
    renderPage();
    const dialog = await sendReveal();
    expect(await within(dialog).findByText('This feature is not enabled yet')).toBeInTheDocument();
    expect(within(dialog).getByRole('link').getAttribute('href')).toBe('/setting/accountSecurity');
    expect(within(dialog).queryByLabelText('Payment password')).not.toBeInTheDocument();
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');
  });

  it('shows a wrong code under the code field', async () => {
    answer = () =>
      fieldError('code', 'invalid_code', 'The provided two factor authentication code was invalid.');
    renderPage();
    const dialog = await sendReveal();
    expect(
      await within(dialog).findByText('The verification code is invalid or has already been used.'),
    ).toBeInTheDocument();
  });

  it('regenerates after the warning and shows the new secrets once', async () => {
    answer = () =>
      json({
        data: {
          ...KEY,
          access_key: 'ak_live_5678',
          rotated_at: '2026-03-02T04:00:00Z',
          secret: 'sk_brand_new',
          webhook_secret: 'whsec_bmV3',
        },
      });
    renderPage();
    await screen.findByTestId('access-key');
    const u = user();
    await u.click(onPage().getByRole('button', { name: /Regenerate/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/stop working at once/)).toBeInTheDocument();
    await fillStepUp(dialog, 'pay-999999', '111222');
    await u.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect((await screen.findByTestId('new-secret')).textContent).toBe('sk_brand_new');
    expect(screen.getByTestId('new-webhook-secret').textContent).toBe('whsec_bmV3');
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/merchant/access-key/regenerate',
        query: {},
        body: { mode: 'live', payment_password: 'pay-999999', code: '111222' },
      },
    ]);
    await u.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('access-key').textContent).toBe('ak_live_5678'));
    expect(screen.getByText('2026-03-02 12:00:00')).toBeInTheDocument();
    expect(screen.getByTestId('access-key-secret').textContent).not.toContain('sk_');
  });

  it('explains that no key was issued yet and generates the first one', async () => {
    accessKey = null;
    answer = () => json({ data: { ...KEY, secret: 'sk_first', webhook_secret: 'whsec_Zmlyc3Q=' } });
    renderPage();
    expect(
      await screen.findByText('No access key has been issued for this merchant yet.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reveal/ })).not.toBeInTheDocument();
    const u = user();
    await u.click(screen.getByRole('button', { name: /Generate access key/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByText(/stop working at once/)).not.toBeInTheDocument();
    await fillStepUp(dialog);
    await u.click(within(dialog).getByRole('button', { name: 'Generate access key' }));
    expect((await screen.findByTestId('new-secret')).textContent).toBe('sk_first');
    expect(sent.map((call) => `${call.method} ${call.path}`)).toEqual([
      'PUT /api/merchant/access-key/regenerate',
    ]);
    expect(screen.getByTestId('access-key').textContent).toBe('ak_live_1234');
  });

  it('saves the default notify URL, and refuses one that is not http(s)', async () => {
    answer = () => json({ data: { ...KEY, notify_url: 'https://new.example/hook' } });
    renderPage();
    const field = await screen.findByRole('textbox', { name: 'Default notify URL' });
    const u = user();
    await u.clear(field);
    await u.type(field, 'ftp://files.example');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter an http or https address')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await u.clear(field);
    await u.type(field, ' https://new.example/hook ');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'PUT',
          path: '/api/merchant/access-key/update',
          query: {},
          body: { mode: 'live', notify_url: 'https://new.example/hook' },
        },
      ]),
    );
    expect(await screen.findByText('Notify URL saved')).toBeInTheDocument();
  });
});

describe('Settings > IP whitelist (on the access key page)', { timeout: 60_000 }, () => {
  const whitelist = () => screen.getByRole('textbox', { name: 'Allowed addresses' }) as HTMLTextAreaElement;
  const form = () => screen.getByRole('form', { name: 'IP whitelist' });

  it('shows the saved list one per line, and the server’s line error under the field', async () => {
    answer = () =>
      fieldError(
        'ip_address',
        'validation_failed',
        'Line 2 is not an IPv4 address, an IPv6 address or a CIDR range.',
      );
    renderPage();
    await waitFor(() => expect(whitelist().value).toBe('127.0.0.1\n203.0.113.0/24'));
    expect(screen.queryByTestId('ip-whitelist-empty')).not.toBeInTheDocument();
    expect(whitelist().placeholder).toContain('2001:db8::/32');
    const u = user();
    await u.clear(whitelist());
    await u.type(whitelist(), '10.0.0.1{Enter}10.0.0.999');
    await fillStepUp(form());
    await u.click(within(form()).getByRole('button', { name: /Save whitelist/ }));
    const error = await within(form()).findByText(
      'Line 2 is not an IPv4 address, an IPv6 address or a CIDR range.',
    );
    // Under the textarea, not elsewhere.
    expect(error.closest('.ant-form-item')?.contains(whitelist())).toBe(true);
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/merchant/ip-address',
        query: {},
        body: { ip_address: '10.0.0.1\n10.0.0.999', payment_password: 'pay-123456', code: '123456' },
      },
    ]);
  });

  it('says the form is incomplete, as the other forms do, and sends nothing', async () => {
    renderPage();
    await waitFor(() => expect(whitelist().value).toBe('127.0.0.1\n203.0.113.0/24'));
    const u = user();
    await u.clear(whitelist());
    await u.click(within(form()).getByRole('button', { name: /Save whitelist/ }));
    expect(
      await screen.findByText('Please check if the form information is filled in completely'),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('saves the list and shows the one the server kept', async () => {
    answer = () => json({ data: { ips: ['198.51.100.7'] } });
    renderPage();
    await waitFor(() => expect(whitelist().value).toBe('127.0.0.1\n203.0.113.0/24'));
    const u = user();
    await u.clear(whitelist());
    await u.type(whitelist(), ' 198.51.100.7 ');
    await fillStepUp(form());
    await u.click(within(form()).getByRole('button', { name: /Save whitelist/ }));
    expect(await screen.findByText('IP whitelist saved')).toBeInTheDocument();
    await waitFor(() => expect(whitelist().value).toBe('198.51.100.7'));
    expect(within(form()).getByLabelText('Payment password')).toHaveProperty('value', '');
  });

  it('warns in Chinese that an empty list refuses every call, and asks for two-factor first', async () => {
    await changeLanguage('zh-cn');
    ips = [];
    answer = twoFactorRequired;
    renderPage();
    expect((await screen.findByTestId('ip-whitelist-empty')).textContent).toContain(
      '白名单为空：在添加您服务器的地址之前，所有网关接口调用都会被拒绝。',
    );
    const zhForm = screen.getByRole('form', { name: 'IP 白名单' });
    const u = user();
    await u.click(within(zhForm).getByRole('button', { name: /保存白名单/ }));
    expect(await within(zhForm).findByText('请输入 IP 白名单')).toBeInTheDocument();
    expect(within(zhForm).getByText('请输入支付密码')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await u.type(within(zhForm).getByLabelText('允许的地址'), '203.0.113.9');
    await u.type(within(zhForm).getByLabelText('支付密码'), 'pay-123456');
    await u.type(within(zhForm).getByLabelText('谷歌验证码'), '123456');
    await u.click(within(zhForm).getByRole('button', { name: /保存白名单/ }));
    expect(await screen.findByText('此功能尚未开启')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /前往账户安全/ }).getAttribute('href')).toBe(
      '/setting/accountSecurity',
    );
  });
});
