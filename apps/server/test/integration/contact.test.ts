import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext, testConfig } from '../helpers/test-app.ts';

// Contact us (DESIGN section 5): the support channels from the configuration, in the user's language.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

describe('GET /api/merchant/contact', () => {
  it('answers the default channels with their links, hours in each of the three languages', async () => {
    const { users } = await createMerchant(ctx.database.db, { roles: ['VIEWER'] });
    const client = await loginAs(ctx.app, users.VIEWER.email, TEST_PASSWORD);
    const en = await client.get('/api/merchant/contact?lang=en');
    expect(en.statusCode).toBe(200);
    expect(en.json().data).toEqual({
      channels: [
        { kind: 'telegram', value: '@paydesk_support', url: 'https://t.me/paydesk_support' },
        { kind: 'whatsapp', value: '+852 5555 0100', url: 'https://wa.me/85255550100' },
        { kind: 'email', value: 'support@paydesk.example', url: 'mailto:support@paydesk.example' },
      ],
      hours: 'Every day, 09:00–21:00 (UTC+8)',
      language: 'en',
    });
    expect((await client.get('/api/merchant/contact?lang=zh-cn')).json().data.hours).toBe(
      '每天 09:00–21:00（UTC+8）',
    );
    expect((await client.get('/api/merchant/contact?lang=vi')).json().data.hours).toBe(
      'Hằng ngày, 09:00–21:00 (UTC+8)',
    );
    // The console's rule: anything but en and vi is Chinese; without ?lang the browser's language decides.
    expect((await client.get('/api/merchant/contact?lang=fr')).json().data.language).toBe('zh-cn');
    expect(
      (await client.get('/api/merchant/contact', { 'accept-language': 'vi-VN,vi;q=0.9' })).json().data
        .language,
    ).toBe('vi');
    expect((await client.get('/api/merchant/contact')).json().data.language).toBe('zh-cn');
  });

  it('needs a signed-in user', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/merchant/contact' });
    expect(response.statusCode).toBe(401);
  });

  it('follows the configuration: a channel left empty is not offered, weekday hours', async () => {
    const custom = await createTestApp({
      SUPPORT_TELEGRAM: 'acme_help',
      SUPPORT_WHATSAPP: '',
      SUPPORT_EMAIL: 'help@acme.example',
      SUPPORT_HOURS: '10:00-18:30',
      SUPPORT_DAYS: 'weekdays',
      SUPPORT_TIMEZONE: 'UTC+7',
    });
    try {
      const { users } = await createMerchant(custom.database.db, { roles: ['OPERATOR'] });
      const client = await loginAs(custom.app, users.OPERATOR.email, TEST_PASSWORD);
      const data = (await client.get('/api/merchant/contact?lang=en')).json().data;
      expect(data.channels.map((c: { kind: string; url: string }) => [c.kind, c.url])).toEqual([
        ['telegram', 'https://t.me/acme_help'],
        ['email', 'mailto:help@acme.example'],
      ]);
      expect(data.hours).toBe('Monday to Friday, 10:00–18:30 (UTC+7)');
    } finally {
      await custom.close();
    }
  });

  it('refuses a configuration that is not a channel', () => {
    expect(() => testConfig({ SUPPORT_EMAIL: 'not an email' })).toThrow(/SUPPORT_EMAIL/);
    expect(() => testConfig({ SUPPORT_HOURS: '9 to 5' })).toThrow(/SUPPORT_HOURS/);
    expect(() => testConfig({ SUPPORT_TELEGRAM: 'https://t.me/x' })).toThrow(/SUPPORT_TELEGRAM/);
  });
});
