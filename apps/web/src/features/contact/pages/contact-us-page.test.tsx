import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Contact } from '@paydesk/shared/contact/contact.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, server } from '../../../test/server.ts';
import ContactUsPage from './contact-us-page.tsx';

configure({ asyncUtilTimeout: 10_000 });

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
  asked = [];
  failing = false;
  server.use(
    http.get('/api/merchant/contact', ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang') ?? '';
      asked.push(lang);
      if (failing) return apiError(500, 'server_error', 'Server error.');
      return json({ data: contactIn(lang) });
    }),
  );
});

const renderPage = () => renderRoute(ContactUsPage, { path: '/contactUs' });

describe('Contact us', { timeout: 60_000 }, () => {
  it('shows each channel with a link that opens it and a button that copies it', async () => {
    renderPage();
    const telegram = await screen.findByTestId('contact-telegram');
    expect(asked).toEqual(['en']);
    expect(telegram.textContent).toContain('@paydesk_support');
    expect(within(telegram).getByRole('link', { name: 'Open in Telegram' })).toHaveAttribute(
      'href',
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
