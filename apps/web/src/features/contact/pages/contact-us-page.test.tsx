import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '@paydesk/shared/contact/contact.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { resetHttpStateForTests } from '../../../lib/http.ts';
import ContactUsPage from './contact-us-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const HOURS: Record<string, string> = {
  en: 'Every day, 09:00–21:00 (UTC+8)',
  'zh-cn': '每天 09:00–21:00（UTC+8）',
  vi: 'Hằng ngày, 09:00–21:00 (UTC+8)',
};
const contactIn = (language: string): Contact => ({
  channels: [
    { kind: 'telegram', value: '@paydesk_support', url: 'https://t.me/paydesk_support' },
    { kind: 'whatsapp', value: '+852 5555 0100', url: 'https://wa.me/85255550100' },
    { kind: 'email', value: 'support@paydesk.example', url: 'mailto:support@paydesk.example' },
  ],
  hours: HOURS[language],
  language,
});

let asked: string[];
let failing: boolean;

beforeEach(async () => {
  await changeLanguage('en');
  resetHttpStateForTests();
  asked = [];
  failing = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [path, search = ''] = url.split('?');
      if (path === '/api/merchant/contact') {
        const lang = new URLSearchParams(search).get('lang') ?? '';
        asked.push(lang);
        if (failing) return json(500, { message: 'Server error.', code: 'server_error' });
        return json(200, { data: contactIn(lang) });
      }
      return json(404, { message: 'Not found.', code: 'not_found' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/contactUs', Component: ContactUsPage }], {
    initialEntries: ['/contactUs'],
  });
  render(
    <QueryClientProvider client={client}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
}

describe('Contact us', { timeout: 60_000 }, () => {
  it('shows each channel with a link that opens it and a button that copies it', async () => {
    renderPage();
    const telegram = await screen.findByTestId('contact-telegram');
    expect(asked).toEqual(['en']);
    expect(telegram.textContent).toContain('@paydesk_support');
    expect(within(telegram).getByRole('link', { name: 'Open in Telegram' }).getAttribute('href')).toBe(
      'https://t.me/paydesk_support',
    );
    const whatsapp = screen.getByTestId('contact-whatsapp');
    expect(within(whatsapp).getByRole('link', { name: 'Open in WhatsApp' }).getAttribute('href')).toBe(
      'https://wa.me/85255550100',
    );
    const email = screen.getByTestId('contact-email');
    expect(within(email).getByRole('link', { name: 'Write an email' }).getAttribute('href')).toBe(
      'mailto:support@paydesk.example',
    );
    expect(screen.getByTestId('contact-hours').textContent).toContain('Every day, 09:00–21:00 (UTC+8)');

    // user-event puts its own clipboard in place: what the button wrote is read back from it.
    const user = userEvent.setup({ delay: null });
    await user.click(within(whatsapp).getByRole('button', { name: 'Copy the WhatsApp contact' }));
    expect(await navigator.clipboard.readText()).toBe('+852 5555 0100');
    expect(await screen.findByText('Copied: +852 5555 0100')).toBeInTheDocument();
  });

  it('asks for the channels in the console’s language: Chinese and Vietnamese', async () => {
    await changeLanguage('zh-cn');
    renderPage();
    await waitFor(() =>
      expect(screen.getByTestId('contact-hours').textContent).toContain('每天 09:00–21:00'),
    );
    expect(screen.getByRole('heading', { name: '联系我们' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '发送邮件' })).toBeInTheDocument();
    await changeLanguage('vi');
    await waitFor(() => expect(screen.getByTestId('contact-hours').textContent).toContain('Hằng ngày'));
    expect(asked).toEqual(['zh-cn', 'vi']);
    expect(screen.getByRole('link', { name: 'Mở trong Telegram' })).toBeInTheDocument();
  });

  it('says when the channels cannot be loaded, and tries again', async () => {
    failing = true;
    renderPage();
    expect(await screen.findByText('The support channels could not be loaded.')).toBeInTheDocument();
    failing = false;
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('contact-telegram')).toBeInTheDocument();
  });
});
