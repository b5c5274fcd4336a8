import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n/index.ts';
import { setMode } from '../../../stores/mode.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server, signInAs } from '../../../test/server.ts';
import AccessKeyPage from './access-key-page.tsx';

// DESIGN 12: a live and a test key; the page shows the key of the console's mode, says which it is, and
// reveals and regenerates that one (the query's or body's `mode` decides, not X-Mode).

configure({ asyncUtilTimeout: 10_000 });

const keyOf = (mode: string) => ({
  merchant_no: 'M100001',
  access_key: `${mode}_ak_1234`,
  notify_url: null,
  created_at: '2026-03-01T00:30:00Z',
  rotated_at: null,
  mode,
});

type Sent = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  header: string | null;
};
let sent: Sent[];

beforeEach(async () => {
  await changeLanguage('en');
  sent = [];
  server.use(
    http.all('/api/merchant/access-key*', async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      const call: Sent = {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text === '' ? undefined : JSON.parse(text),
        header: request.headers.get('x-mode'),
      };
      sent.push(call);
      const mode =
        url.searchParams.get('mode') ?? (call.body as { mode?: string } | undefined)?.mode ?? 'live';
      if (url.pathname.endsWith('/secret'))
        return json({ data: { secret: `sk_${mode}`, webhook_secret: 'whsec_x', mode } });
      if (url.pathname.endsWith('/regenerate'))
        return json({
          data: {
            ...keyOf(mode),
            access_key: `${mode}_ak_new`,
            secret: 'sk_new',
            webhook_secret: 'whsec_new',
          },
        });
      return json({ data: keyOf(mode) });
    }),
  );
  signInAs({ perms: ['access-key:manage'] });
});

const u = () => userEvent.setup({ delay: null });

/** The open dialog titled so (antd keeps a closing one in the page a while), its factors, and its button. */
async function stepUp(title: string, button: string) {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  const dialog = heading.closest('[role=dialog]') as HTMLElement;
  await u().type(within(dialog).getByLabelText('Payment password'), 'pay-123456');
  await u().type(within(dialog).getByLabelText('Google code'), '123456');
  await u().click(within(dialog).getByRole('button', { name: button }));
}

describe('Settings > Access key in live and test mode', { timeout: 60_000 }, () => {
  it('shows the live key in live mode and says so', async () => {
    renderRoute(AccessKeyPage);
    expect((await screen.findByTestId('access-key')).textContent).toBe('live_ak_1234');
    expect(screen.getByTestId('access-key-mode')).toHaveTextContent('Live key');
    expect(screen.getByTestId('access-key-mode-hint')).toHaveTextContent('move real money');
    expect(sent).toEqual([
      {
        method: 'GET',
        path: '/api/merchant/access-key',
        query: { mode: 'live' },
        body: undefined,
        header: null,
      },
    ]);
  });

  it('shows and reveals the test key in test mode', async () => {
    setMode('test');
    renderRoute(AccessKeyPage);
    expect((await screen.findByTestId('access-key')).textContent).toBe('test_ak_1234');
    expect(screen.getByTestId('access-key-mode')).toHaveTextContent('Test key');
    expect(screen.getByTestId('access-key-mode-hint')).toHaveTextContent('test objects only');

    await u().click(screen.getByRole('button', { name: /Reveal/ }));
    await stepUp('Reveal the secrets', 'Reveal');
    await waitFor(() => expect(screen.getByTestId('access-key-secret').textContent).toBe('sk_test'));
    expect(sent.map(({ method, query, header }) => ({ method, query, header }))).toEqual([
      { method: 'GET', query: { mode: 'test' }, header: 'test' },
      {
        method: 'GET',
        query: { mode: 'test', payment_password: 'pay-123456', code: '123456' },
        header: 'test',
      },
    ]);
  });

  it('saves the notify URL of the test key in test mode, never the live key’s', async () => {
    setMode('test');
    renderRoute(AccessKeyPage);
    await screen.findByTestId('access-key');
    const field = await screen.findByRole('textbox', { name: 'Default notify URL' });
    await u().type(field, 'https://test.example/hook');
    await u().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'PUT')).toMatchObject({
        path: '/api/merchant/access-key/update',
        body: { mode: 'test', notify_url: 'https://test.example/hook' },
        header: 'test',
      }),
    );
    expect(await screen.findByText('Notify URL saved')).toBeInTheDocument();
  });

  it('regenerates the test key in test mode', async () => {
    setMode('test');
    renderRoute(AccessKeyPage);
    await screen.findByTestId('access-key');
    await u().click(screen.getByRole('button', { name: /Regenerate/ }));
    await stepUp('Regenerate the access key', 'Regenerate');
    expect((await screen.findByTestId('new-secret')).textContent).toBe('sk_new');
    expect(sent.at(-1)).toMatchObject({
      method: 'PUT',
      body: { mode: 'test', payment_password: 'pay-123456', code: '123456' },
      header: 'test',
    });
    await u().click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('access-key').textContent).toBe('test_ak_new'));
  });
});
