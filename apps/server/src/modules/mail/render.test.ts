import { describe, expect, it } from 'vitest';
import { LOCALES } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { NOTIFICATION_TYPES } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { renderMail } from './render.ts';
import { MAIL_TEMPLATES, type MailTemplate } from './templates.ts';

const PARAMS: Record<string, string> = {
  link: 'https://pay.example/invite/abc',
  merchant: 'Acme <b>Shop</b> & Co',
  inviter: 'Ann',
  actor: 'Ann <ann@acme.test>',
  role: 'FINANCE',
  expires_at: '2026-11-30T04:30:00.000Z',
  at: '2026-11-29T04:30:12.345Z',
  mode: 'live',
  url: 'https://shop.example/hook',
  ips: '1.2.3.4, 10.0.0.0/8',
  user: 'Bob',
  email: 'bob@acme.test',
  ip: '203.0.113.9',
  payout_no: 'PO123',
  amount: '1000.00',
  currency: 'CNY',
};

describe('mail templates', () => {
  it('every notification type has a template', () => {
    for (const type of NOTIFICATION_TYPES) expect(Object.keys(MAIL_TEMPLATES)).toContain(type);
  });

  it('every template renders a subject, text and HTML in each language, with the time in UTC', () => {
    for (const template of Object.keys(MAIL_TEMPLATES) as MailTemplate[]) {
      const subjects = new Set<string>();
      for (const locale of LOCALES) {
        const mail = renderMail(template, locale, PARAMS as never);
        expect(mail.subject.length, `${template} ${locale}`).toBeGreaterThan(3);
        expect(mail.text).toContain('Acme <b>Shop</b> & Co');
        expect(mail.html).toContain(`lang="${{ en: 'en', 'zh-cn': 'zh-CN', vi: 'vi' }[locale]}"`);
        expect(mail.text).toMatch(/2026-11-(29|30) 04:30 UTC/);
        subjects.add(mail.subject);
      }
      expect(subjects.size, template).toBe(3);
    }
  });

  it('escapes every parameter in the HTML and links only http(s) addresses', () => {
    const mail = renderMail('invitation', 'en', { ...PARAMS, link: 'javascript:alert(1)' } as never);
    expect(mail.html).not.toContain('<b>Shop</b>');
    expect(mail.html).toContain('Acme &lt;b&gt;Shop&lt;/b&gt; &amp; Co');
    expect(mail.html).not.toContain('href="javascript:');
    const good = renderMail('invitation', 'zh-cn', PARAMS as never);
    expect(good.html).toContain('href="https://pay.example/invite/abc"');
    expect(good.text).toContain('https://pay.example/invite/abc');
    expect(good.subject).toContain('邀请');
  });

  it("shows a payout's amount grouped, as the console does, with its currency", () => {
    const vnd = { ...PARAMS, amount: '2000000', currency: 'VND' } as never;
    for (const locale of LOCALES) {
      const mail = renderMail('payout_pending_approval', locale, vnd);
      expect(mail.text, locale).toContain('2,000,000 VND');
      expect(mail.html, locale).toContain('2,000,000 VND');
      expect(mail.text, locale).not.toContain('2000000');
    }
    expect(renderMail('payout_pending_approval', 'en', PARAMS as never).text).toContain('1,000.00 CNY');
  });
});
