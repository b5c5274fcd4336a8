import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatAmount,
  payPageCsp,
  pickLanguage,
  renderPayPage,
  type PayPageInput,
  type PayPageLanguage,
} from './pay-page.ts';
import { PAY_PAGE_LANGUAGES, PAY_PAGE_TEXTS } from './pay-page.texts.ts';

const NOW = '2025-05-01T08:00:00.000Z';

const input = (overrides: Partial<PayPageInput> = {}): PayPageInput => ({
  lang: 'en',
  tradeNo: 'C202505010800000001',
  outTradeNo: 'ORDER-1001',
  merchantName: 'Demo Store',
  merchantNo: 'M100001',
  amount: '1234.5',
  currency: 'CNY',
  status: 'to_be_paid',
  expiresAt: '2025-05-01T08:30:00.000Z',
  now: NOW,
  returnUrl: 'https://shop.example.com/orders/1001',
  ...overrides,
});

const render = (overrides: Partial<PayPageInput> = {}) => renderPayPage(input(overrides)).html;

/** The decoded text of the page, tags removed: what a person reads. */
const visibleText = (html: string) =>
  html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name] ?? '',
    )
    .replace(/\s+/g, ' ');

const forms = (html: string) => [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)].map((match) => match[0]);

describe('texts', () => {
  it('has the same keys in every language and no empty text', () => {
    const englishKeys = Object.keys(PAY_PAGE_TEXTS.en).sort();
    for (const language of PAY_PAGE_LANGUAGES) {
      const texts = PAY_PAGE_TEXTS[language];
      expect(Object.keys(texts).sort(), language).toEqual(englishKeys);
      for (const [key, value] of Object.entries(texts))
        expect(value.trim(), `${language}.${key}`).not.toBe('');
    }
  });

  it('is really translated: no text is the English one in Chinese', () => {
    for (const [key, value] of Object.entries(PAY_PAGE_TEXTS['zh-cn'])) {
      expect(value, key).not.toBe(PAY_PAGE_TEXTS.en[key as keyof typeof PAY_PAGE_TEXTS.en]);
    }
  });
});

describe('renderPayPage', () => {
  it.each(PAY_PAGE_LANGUAGES)('renders the payable page in %s with that language texts', (lang) => {
    const t = PAY_PAGE_TEXTS[lang];
    const html = render({ lang });
    const text = visibleText(html);
    for (const shown of [t.sandboxBanner, t.merchant, t.merchantNo, t.amount, t.tradeNo, t.outTradeNo]) {
      expect(text).toContain(shown);
    }
    expect(text).toContain(t.expiresAt);
    expect(text).toContain(t.sandboxNote);
    expect(html).toContain(`>${t.pay}</button>`);
    expect(html).toContain(`>${t.fail}</button>`);
    expect(html).toContain(`<html lang="${{ en: 'en', 'zh-cn': 'zh-CN', vi: 'vi' }[lang]}">`);
    expect(html).toContain(`<title>${t.title} · Demo Store</title>`);
    // The other languages' banners are not on the page.
    for (const other of PAY_PAGE_LANGUAGES.filter((language) => language !== lang)) {
      expect(text).not.toContain(PAY_PAGE_TEXTS[other].sandboxBanner);
    }
  });

  it.each(PAY_PAGE_LANGUAGES)('renders the result panels in %s', (lang) => {
    const t = PAY_PAGE_TEXTS[lang];
    expect(visibleText(render({ lang, status: 'paid' }))).toContain(`${t.paidTitle} ${t.paidBody}`);
    expect(visibleText(render({ lang, status: 'failed' }))).toContain(`${t.failedTitle} ${t.failedBody}`);
    expect(visibleText(render({ lang, status: 'closed' }))).toContain(`${t.closedTitle} ${t.closedBody}`);
    expect(visibleText(render({ lang, expiresAt: NOW }))).toContain(`${t.expiredTitle} ${t.expiredBody}`);
    expect(visibleText(render({ lang, status: 'paid' }))).toContain(t.returnToMerchant);
  });

  it('shows the merchant, its number and both order numbers', () => {
    const text = visibleText(render());
    expect(text).toContain('Merchant Demo Store Merchant No. M100001');
    expect(text).toContain('Order No. C202505010800000001');
    expect(text).toContain('Merchant order No. ORDER-1001');
  });

  it('shows the amount with the currency symbol and its code', () => {
    const html = render({ amount: '1234.5', currency: 'CNY' });
    expect(html).toContain('<p class="amount">¥1,234.50</p>');
    expect(html).toContain('<p class="currency">CNY</p>');
    expect(render({ amount: '25000000', currency: 'VND' })).toContain('<p class="amount">₫25,000,000</p>');
  });

  it('has two forms posting result=paid and result=failed to the page itself, keeping the language', () => {
    const [pay, fail] = forms(render({ lang: 'vi' }));
    for (const form of [pay, fail]) {
      expect(form).toContain('method="post" action="/sandbox/pay/C202505010800000001?lang=vi"');
    }
    expect(pay).toContain('<input type="hidden" name="result" value="paid">');
    expect(fail).toContain('<input type="hidden" name="result" value="failed">');
    expect(pay).not.toContain('value="failed"');
  });

  it('adds the CSRF field to both forms when given', () => {
    const html = render({ csrfField: { name: '_csrf', value: 'abc"def' } });
    const all = forms(html);
    expect(all).toHaveLength(2);
    for (const form of all) expect(form).toContain('<input type="hidden" name="_csrf" value="abc&quot;def">');
    expect(render()).not.toContain('_csrf');
  });

  it('encodes the trade number in the form action', () => {
    const [pay] = forms(render({ tradeNo: 'T 1/2?x="y"' }));
    expect(pay).toContain('action="/sandbox/pay/T%201%2F2%3Fx%3D%22y%22?lang=en"');
  });

  it('shows the expiry time without JavaScript', () => {
    const html = render({ expiresAt: '2025-05-01T08:30:00.000Z' });
    expect(visibleText(html)).toContain('Expires at 2025-05-01 08:30:00 UTC');
    expect(html).toContain('<time class="expiry-value" datetime="2025-05-01T08:30:00.000Z">');
  });

  it.each([
    ['paid', 'paidTitle'],
    ['failed', 'failedTitle'],
    ['closed', 'closedTitle'],
  ] as const)('shows no button, no form and no countdown once %s', (status, title) => {
    const html = render({ status });
    expect(html).not.toContain('<form');
    expect(html).not.toContain('<button');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('id="expiry"');
    expect(html).toContain(`<section class="result result-${status}" role="status">`);
    expect(visibleText(html)).toContain(PAY_PAGE_TEXTS.en[title]);
  });

  it('treats a to_be_paid order past its expiry as expired: no buttons', () => {
    for (const expiresAt of [NOW, '2025-05-01T07:59:59.000Z']) {
      const html = render({ expiresAt });
      expect(html).not.toContain('<form');
      expect(html).not.toContain('<button');
      expect(visibleText(html)).toContain('Expired The time to pay this order has run out.');
    }
    expect(render({ expiresAt: '2025-05-01T08:00:01.000Z' })).toContain('<button');
  });

  it('links back to the merchant only on a result panel and only for http(s) URLs', () => {
    expect(render({ status: 'paid' })).toContain(
      '<a class="return" href="https://shop.example.com/orders/1001" rel="noopener noreferrer">Return to merchant</a>',
    );
    expect(render({ status: 'failed', returnUrl: 'http://shop.test/r?a=1&b=2' })).toContain(
      'href="http://shop.test/r?a=1&amp;b=2"',
    );
    expect(render()).not.toContain('Return to merchant');
    for (const returnUrl of [
      null,
      '',
      'javascript:alert(1)',
      'data:text/html,hi',
      '/relative',
      'ftp://x.test/',
    ]) {
      const html = render({ status: 'paid', returnUrl });
      expect(html, String(returnUrl)).not.toContain('class="return"');
      expect(html).not.toContain('javascript:');
    }
  });

  it('links to the three languages, marking the current one', () => {
    const html = render({ lang: 'vi' });
    expect(html).toContain('<a href="?lang=en" hreflang="en" lang="en">English</a>');
    expect(html).toContain('<a href="?lang=zh-cn" hreflang="zh-CN" lang="zh-CN">简体中文</a>');
    expect(html).toContain('<a href="?lang=vi" hreflang="vi" lang="vi" aria-current="true">Tiếng Việt</a>');
  });

  it('escapes every value it is given', () => {
    const hostile = `<script>alert("x")</script> & 'Co'`;
    const html = render({
      merchantName: hostile,
      outTradeNo: `"><img src=x onerror=alert(1)>`,
      merchantNo: `M1<b>`,
      tradeNo: `T<i>`,
      csrfField: { name: `a"b`, value: `<v>` },
    });
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
    expect(html).not.toContain('alert("x")');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(visibleText(html)).toContain(`Merchant ${hostile} Merchant No. M1<b>`);
    // Also on a result page, where the script is absent.
    const result = render({ status: 'paid', merchantName: hostile });
    expect(result).not.toContain('<script');
  });

  it('refuses an amount that is not a decimal string rather than showing something else', () => {
    expect(() => render({ amount: '1e3' })).toThrow(/Not a decimal amount/);
    expect(() => render({ amount: '-5' })).toThrow(/Not a decimal amount/);
  });
});

describe('formatAmount', () => {
  it.each([
    ['0.01', 'CNY', '¥0.01'],
    ['1234.5', 'CNY', '¥1,234.50'],
    ['100', 'CNY', '¥100.00'],
    ['1234567.89', 'INR', '₹1,234,567.89'],
    ['99999999999999.99', 'INR', '₹99,999,999,999,999.99'],
    ['1500.7', 'BRL', 'R$1,500.70'],
    ['0', 'BRL', 'R$0.00'],
    ['50000', 'VND', '₫50,000'],
    ['1234567', 'VND', '₫1,234,567'],
    ['999', 'VND', '₫999'],
    ['25000.00', 'VND', '₫25,000'],
    ['007.5', 'CNY', '¥7.50'],
  ] as const)('%s %s -> %s', (amount, currency, shown) => {
    expect(formatAmount(amount, currency)).toBe(shown);
  });

  it('is exact beyond what a float can hold', () => {
    expect(formatAmount('9007199254740993.01', 'CNY')).toBe('¥9,007,199,254,740,993.01');
  });

  it('keeps digits past the currency decimals instead of rounding money away', () => {
    expect(formatAmount('10.005', 'CNY')).toBe('¥10.005');
    expect(formatAmount('10.0050', 'CNY')).toBe('¥10.005');
  });
});

describe('CSP and the countdown script', () => {
  it('gives the script and the style the nonce, and the CSP allows exactly that nonce', () => {
    const { html, nonce } = renderPayPage(input());
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    expect(scripts).toEqual([` nonce="${nonce}"`]);
    expect(html).toContain(`<style nonce="${nonce}">`);

    const directives = new Map(
      payPageCsp(nonce)
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives.get('script-src')).toEqual([`'nonce-${nonce}'`]);
    expect(directives.get('style-src')).toEqual([`'nonce-${nonce}'`]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(payPageCsp(nonce)).not.toContain('unsafe');
    expect(payPageCsp(nonce)).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'none'; ` +
        "connect-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('uses a fresh nonce per page unless one is given', () => {
    const first = renderPayPage(input()).nonce;
    expect(renderPayPage(input()).nonce).not.toBe(first);
    const given = 'dGhpcyBpcyBhIG5vbmNlIQ==';
    const { html, nonce } = renderPayPage(input(), given);
    expect(nonce).toBe(given);
    expect(html).toContain(`<script nonce="${given}">`);
    expect(payPageCsp(given)).toContain(`script-src 'nonce-${given}'`);
  });

  it('refuses a nonce that could break out of the header or the attribute', () => {
    expect(() => payPageCsp(`abcdefghijklmnop'; script-src *`)).toThrow();
    expect(() => payPageCsp('short')).toThrow();
    expect(() => renderPayPage(input(), 'abcdefghijklmnop"><script>')).toThrow();
  });

  describe('running the script', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Runs the page's script against a minimal document built from the rendered attributes. */
    function runCountdown(html: string) {
      const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(html)?.[1];
      if (!script) throw new Error('no script on the page');
      const attributes = Object.fromEntries(
        [...(/<p class="expiry"[^>]*>/.exec(html)?.[0] ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [
          m[1],
          m[2]
            .replace(/&#39;/g, "'")
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&'),
        ]),
      );
      const label = { textContent: 'Expires at' };
      const value = { textContent: '2025-05-01 08:30:00 UTC' };
      const buttons = [{ disabled: false }, { disabled: false }];
      const submitHandlers: Array<() => void> = [];
      const box = {
        className: 'expiry',
        getAttribute: (name: string) => attributes[name] ?? null,
        querySelector: (selector: string) => ({ '.expiry-label': label, '.expiry-value': value })[selector],
      };
      const document = {
        getElementById: (id: string) => (id === 'expiry' ? box : null),
        querySelectorAll: (selector: string) =>
          selector === '.actions button'
            ? buttons
            : selector === '.actions form'
              ? buttons.map(() => ({
                  addEventListener: (_: string, handler: () => void) => submitHandlers.push(handler),
                }))
              : [],
      };
      runInNewContext(script, { document, Date, setInterval, clearInterval, setTimeout, String, Math });
      return { label, value, buttons, box, submitHandlers };
    }

    it('counts down in mm:ss from the server time, whatever the browser clock says', () => {
      vi.useFakeTimers();
      // The browser's clock is a day off: only the elapsed time counts.
      vi.setSystemTime(new Date('2025-04-30T03:17:00.000Z'));
      const page = runCountdown(render({ lang: 'en', expiresAt: '2025-05-01T08:30:00.000Z', now: NOW }));
      expect(page.label.textContent).toBe('Time left');
      expect(page.value.textContent).toBe('30:00');
      vi.advanceTimersByTime(1000);
      expect(page.value.textContent).toBe('29:59');
      vi.advanceTimersByTime(60_000);
      expect(page.value.textContent).toBe('28:59');
      expect(page.buttons.every((button) => !button.disabled)).toBe(true);
    });

    it('says expired at zero and disables the buttons', () => {
      vi.useFakeTimers();
      const page = runCountdown(render({ lang: 'zh-cn', expiresAt: '2025-05-01T08:00:05.000Z', now: NOW }));
      expect(page.value.textContent).toBe('00:05');
      expect(page.label.textContent).toBe('剩余支付时间');
      vi.advanceTimersByTime(4000);
      expect(page.value.textContent).toBe('00:01');
      vi.advanceTimersByTime(1000);
      expect(page.label.textContent).toBe('订单已过期');
      expect(page.value.textContent).toBe('00:00');
      expect(page.box.className).toContain('expired');
      expect(page.buttons.every((button) => button.disabled)).toBe(true);
    });

    it('disables both buttons once a form is submitted, so a double tap posts once', () => {
      vi.useFakeTimers();
      const page = runCountdown(render());
      expect(page.submitHandlers).toHaveLength(2);
      page.submitHandlers[0]();
      vi.advanceTimersByTime(0);
      expect(page.buttons.every((button) => button.disabled)).toBe(true);
    });

    it('shows minutes past 59 for a long expiry', () => {
      vi.useFakeTimers();
      const page = runCountdown(render({ expiresAt: '2025-05-01T10:00:00.000Z' }));
      expect(page.value.textContent).toBe('120:00');
    });
  });
});

describe('pickLanguage', () => {
  it.each([
    // [Accept-Language, ?lang=, expected]
    [undefined, undefined, 'zh-cn'],
    ['', undefined, 'zh-cn'],
    ['fr-FR, de;q=0.8', undefined, 'zh-cn'],
    ['*', undefined, 'zh-cn'],
    ['en-US,en;q=0.9', undefined, 'en'],
    ['vi-VN,vi;q=0.9,en;q=0.8', undefined, 'vi'],
    ['zh-CN,zh;q=0.9', undefined, 'zh-cn'],
    ['zh-TW', undefined, 'zh-cn'],
    ['fr;q=1, en;q=0.5, vi;q=0.7', undefined, 'vi'],
    ['en;q=0.5, vi;q=0.5', undefined, 'en'],
    ['vi;q=0, en;q=0.1', undefined, 'en'],
    ['EN-gb', undefined, 'en'],
    ['en;q=abc, vi', undefined, 'vi'],
    // The query wins over the header.
    ['en-US', 'vi', 'vi'],
    ['vi', 'zh-cn', 'zh-cn'],
    ['vi', 'en', 'en'],
    [undefined, 'EN', 'en'],
    [undefined, 'zh-CN', 'zh-cn'],
    // An unknown or empty query is ignored.
    ['vi', 'fr', 'vi'],
    ['en', '', 'en'],
    [undefined, 'xx', 'zh-cn'],
  ] as Array<[string | undefined, string | undefined, PayPageLanguage]>)(
    'Accept-Language %j, ?lang=%j -> %s',
    (acceptLanguage, query, expected) => {
      expect(pickLanguage(acceptLanguage, query)).toBe(expected);
    },
  );
});

describe('a bank transfer (a real channel, DESIGN 13)', () => {
  const transfer = {
    reference: 'C20250501083000123456789',
    fields: [
      { name: 'bank' as const, value: 'Vietcombank' },
      { name: 'account_no' as const, value: '0071000888999' },
    ],
  };

  it.each(PAY_PAGE_LANGUAGES)(
    'shows the account and reference, no buttons; a test order says so (%s)',
    (lang) => {
      const t = PAY_PAGE_TEXTS[lang];
      const live = visibleText(render({ lang, transfer }));
      expect(live).toContain(`${t.field_bank} Vietcombank`);
      expect(live).toContain(`${t.reference} ${transfer.reference}`);
      expect(live).toContain(t.transferNote);
      expect(render({ lang, transfer })).not.toContain('<button');
      expect(live).not.toContain(t.sandboxBanner);
      expect(live).not.toContain(t.testTransferBanner);
      expect(visibleText(render({ lang, transfer: { ...transfer, testMode: true } }))).toContain(
        t.testTransferBanner,
      );
    },
  );
});
