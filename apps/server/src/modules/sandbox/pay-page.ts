import { randomBytes } from 'node:crypto';
import { CURRENCIES, groupDecimal } from '@paydesk/shared';
import {
  HTML_LANG,
  PAY_PAGE_LANGUAGE_NAMES,
  PAY_PAGE_LANGUAGES,
  PAY_PAGE_TEXTS,
  type PayPageLanguage,
  type PayPageTexts,
} from './pay-page.texts.ts';
import { sandboxPayPath } from '../channels/index.ts';

// The sandbox channel's hosted test checkout (DESIGN section 6): GET /sandbox/pay/{trade_no} shows it; its
// Pay and Fail buttons POST result=paid or result=failed (an HTML form) to the same path. The page is one
// self-contained document: inline CSS and one small script, both carrying a per-response nonce that
// payPageCsp(nonce) allows, so the route must send that header instead of the app-wide policy.

export { PAY_PAGE_LANGUAGES, PAY_PAGE_TEXTS, type PayPageLanguage } from './pay-page.texts.ts';

export type PayPageCurrency = 'CNY' | 'INR' | 'BRL' | 'VND';
export type PayPageStatus = 'to_be_paid' | 'paid' | 'closed' | 'failed';

export type PayPageInput = {
  lang: PayPageLanguage;
  tradeNo: string;
  outTradeNo: string;
  merchantName: string;
  merchantNo: string;
  /** Decimal string in the currency's major unit, as the API carries it: "1234.50". */
  amount: string;
  currency: PayPageCurrency;
  status: PayPageStatus;
  /** ISO 8601. */
  expiresAt: string;
  /** The server's clock when rendering, ISO 8601: the countdown starts from expiresAt - now. */
  now: string;
  /** The merchant's return_url; shown as a link only when it is http(s). */
  returnUrl: string | null;
  /** A hidden field added to both forms when the POST route checks a CSRF token. */
  csrfField?: { name: string; value: string };
  /**
   * A bank transfer's instructions (a real channel, DESIGN 13): the page shows them instead of the
   * sandbox's Pay and Fail buttons. `qrSvg` is the QR code already drawn (an inline SVG we made).
   */
  transfer?: {
    /** A test-mode order (DESIGN 12): the page says no real money is involved. */
    testMode?: boolean;
    reference: string;
    fields: { name: TransferField; value: string }[];
    qr?: { standard: 'vietqr' | 'pix' | 'upi'; payload: string; svg: string };
  };
};

export type TransferField = 'bank' | 'branch' | 'account_name' | 'account_no' | 'ifsc' | 'pix_key' | 'upi_id';

export type PayPageOutcome = 'payable' | 'paid' | 'failed' | 'closed' | 'expired';

/** Where a collection's sandbox checkout lives (its adapter says); its forms post back to the same path. */
export const payPagePath = sandboxPayPath;

/** 16 random bytes, base64: a fresh one per response. */
export const createCspNonce = (): string => randomBytes(16).toString('base64');

const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/**
 * The Content-Security-Policy for the page rendered with this nonce: nothing loads from anywhere, only the
 * page's own <style> and <script> run, and its forms post only to this server.
 */
export function payPageCsp(nonce: string): string {
  if (!NONCE_PATTERN.test(nonce)) throw new Error('A CSP nonce is at least 16 base64 characters.');
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'none'",
    "connect-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const LANGUAGE_BY_PRIMARY_TAG: Record<string, PayPageLanguage> = { zh: 'zh-cn', en: 'en', vi: 'vi' };

/** "en-US" -> en, "zh", "zh-CN" or "zh-TW" -> zh-cn (the only Chinese we have), "vi-VN" -> vi, else null. */
function languageOfTag(tag: string): PayPageLanguage | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGE_BY_PRIMARY_TAG[primary] ?? null;
}

/**
 * The page's language: a supported `?lang=` wins (the switcher's links), then the first supported
 * language of Accept-Language by its q weights, else Chinese, the console's default.
 */
export function pickLanguage(acceptLanguage: string | undefined, query?: string): PayPageLanguage {
  const fromQuery = query ? languageOfTag(query) : null;
  if (fromQuery) return fromQuery;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.split(';');
      const qParam = params.map((param) => param.trim()).find((param) => /^q=/i.test(param));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const language = languageOfTag(entry.tag);
    if (language) return language;
  }
  return 'zh-cn';
}

/**
 * "1234.5" in CNY -> "¥1,234.50"; "1500000" in VND -> "₫1,500,000". Exact: the decimal string is padded to
 * the currency's decimals and grouped, never turned into a float. Zeros past the currency's decimals are
 * dropped ("100.00" VND -> "₫100"); other digits past them are kept rather than rounded away.
 */
export function formatAmount(amount: string, currency: PayPageCurrency): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new Error(`Not a decimal amount: ${amount}`);
  const [, rawWhole, rawFraction = ''] = match;
  const { exponent, symbol } = CURRENCIES[currency];
  const whole = rawWhole.replace(/^0+(?=\d)/, '');
  const fraction =
    rawFraction.length > exponent
      ? rawFraction.slice(0, exponent) + rawFraction.slice(exponent).replace(/0+$/, '')
      : rawFraction.padEnd(exponent, '0');
  return symbol + groupDecimal(fraction ? `${whole}.${fraction}` : whole);
}

/** Whether the buttons are shown, or which result panel replaces them. */
export function payPageOutcome(status: PayPageStatus, expiresAt: string, now: string): PayPageOutcome {
  if (status === 'paid' || status === 'failed' || status === 'closed') return status;
  return parseTime(expiresAt, 'expiresAt') > parseTime(now, 'now') ? 'payable' : 'expired';
}

function parseTime(iso: string, name: string): number {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new Error(`${name} is not an ISO 8601 time: ${iso}`);
  return time;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element text and in quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);

/** The URL, normalised, when it is an absolute http(s) URL; anything else (javascript:, relative) is null. */
function safeLinkUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** "2025-05-01T08:30:00.000Z" -> "2025-05-01 08:30:00 UTC": what the page shows without JavaScript. */
const formatUtc = (iso: string): string => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

// Inline SVG (not an image load, so img-src 'none' does not block it), drawn in the panel's text colour.
const icon = (paths: string) =>
  `<svg class="result-icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="10"/>${paths}</svg>`;

const RESULT_PANELS: Record<
  Exclude<PayPageOutcome, 'payable'>,
  { title: keyof PayPageTexts; body: keyof PayPageTexts; icon: string }
> = {
  paid: { title: 'paidTitle', body: 'paidBody', icon: icon('<path d="M7.5 12.5l3 3 6-6.5"/>') },
  failed: { title: 'failedTitle', body: 'failedBody', icon: icon('<path d="M9 9l6 6M15 9l-6 6"/>') },
  closed: { title: 'closedTitle', body: 'closedBody', icon: icon('<path d="M8 12h8"/>') },
  expired: { title: 'expiredTitle', body: 'expiredBody', icon: icon('<path d="M12 7v5l3 2"/>') },
};

/**
 * The checkout page. Every value from the input is escaped; the nonce (a fresh one unless given) is the one
 * payPageCsp must allow. The POST route should answer with a 303 back to this page, which then shows the
 * result panel (form-action 'self' forbids a redirect from the form to another site).
 */
export function renderPayPage(
  input: PayPageInput,
  nonce: string = createCspNonce(),
): { html: string; nonce: string } {
  if (!NONCE_PATTERN.test(nonce)) throw new Error('A CSP nonce is at least 16 base64 characters.');
  const t = PAY_PAGE_TEXTS[input.lang];
  const outcome = payPageOutcome(input.status, input.expiresAt, input.now);
  const amount = formatAmount(input.amount, input.currency);
  const e = escapeHtml;

  const body =
    outcome !== 'payable'
      ? renderResult(outcome, safeLinkUrl(input.returnUrl), t)
      : input.transfer
        ? renderTransfer(input, input.transfer, t)
        : renderPayable(input, t);
  const title = input.transfer ? t.transferTitle : t.title;
  const bannerText = !input.transfer
    ? t.sandboxBanner
    : input.transfer.testMode
      ? t.testTransferBanner
      : null;
  const banner = bannerText ? `\n    <p class="sandbox-banner" role="note">${e(bannerText)}</p>` : '';

  const languageLinks = PAY_PAGE_LANGUAGES.map((language) => {
    const current = language === input.lang ? ' aria-current="true"' : '';
    return `<a href="?lang=${language}" hreflang="${HTML_LANG[language]}" lang="${HTML_LANG[language]}"${current}>${e(PAY_PAGE_LANGUAGE_NAMES[language])}</a>`;
  }).join('\n        ');

  const html = `<!doctype html>
<html lang="${HTML_LANG[input.lang]}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex, nofollow">
    <title>${e(title)} · ${e(input.merchantName)}</title>
    <style nonce="${nonce}">${STYLES}</style>
  </head>
  <body>${banner}
    <main class="card">
      <header class="merchant">
        <p class="label">${e(t.merchant)}</p>
        <h1>${e(input.merchantName)}</h1>
        <p class="merchant-no">${e(t.merchantNo)} <span class="mono">${e(input.merchantNo)}</span></p>
      </header>
      <section class="amount-block" aria-label="${e(t.amount)}">
        <p class="label">${e(t.amount)}</p>
        <p class="amount">${e(amount)}</p>
        <p class="currency">${e(input.currency)}</p>
      </section>
      <dl class="details">
        <div><dt>${e(t.tradeNo)}</dt><dd class="mono">${e(input.tradeNo)}</dd></div>
        <div><dt>${e(t.outTradeNo)}</dt><dd class="mono">${e(input.outTradeNo)}</dd></div>
      </dl>
${body}
      <nav class="languages" aria-label="${e(t.language)}">
        ${languageLinks}
      </nav>
    </main>${outcome === 'payable' ? `\n    <script nonce="${nonce}">${COUNTDOWN_SCRIPT}</script>` : ''}
  </body>
</html>
`;
  return { html, nonce };
}

function renderExpiry(input: PayPageInput, t: PayPageTexts): string {
  const e = escapeHtml;
  const expiresAt = new Date(parseTime(input.expiresAt, 'expiresAt')).toISOString();
  const now = new Date(parseTime(input.now, 'now')).toISOString();
  return `      <p class="expiry" id="expiry" role="timer" data-now="${now}" data-expires-at="${expiresAt}" data-label-left="${e(t.timeLeft)}" data-label-expired="${e(t.expiredTitle)}">
        <span class="expiry-label">${e(t.expiresAt)}</span>
        <time class="expiry-value" datetime="${expiresAt}">${formatUtc(expiresAt)}</time>
      </p>`;
}

/** A bank transfer: the QR in the country's standard, the account, the reference, the exact amount. */
function renderTransfer(
  input: PayPageInput,
  transfer: NonNullable<PayPageInput['transfer']>,
  t: PayPageTexts,
): string {
  const e = escapeHtml;
  const qr = transfer.qr
    ? `
      <figure class="qr">
        ${transfer.qr.svg}
        <figcaption>${e(t[`qr_${transfer.qr.standard}`])}</figcaption>
      </figure>${
        transfer.qr.standard === 'pix'
          ? `
      <p class="label">${e(t.pixCopyPaste)}</p>
      <p class="payload mono" data-testid="pix-payload">${e(transfer.qr.payload)}</p>`
          : ''
      }`
    : '';
  const rows = transfer.fields
    .map((f) => `<div><dt>${e(t[`field_${f.name}`])}</dt><dd class="mono">${e(f.value)}</dd></div>`)
    .join('\n        ');
  return `${renderExpiry(input, t)}${qr}
      <dl class="details transfer">
        ${rows}
        <div class="reference"><dt>${e(t.reference)}</dt><dd class="mono" data-testid="reference">${e(transfer.reference)}</dd></div>
      </dl>
      <p class="note">${e(t.transferNote)}</p>`;
}

function renderPayable(input: PayPageInput, t: PayPageTexts): string {
  const e = escapeHtml;
  const expiresAt = new Date(parseTime(input.expiresAt, 'expiresAt')).toISOString();
  const now = new Date(parseTime(input.now, 'now')).toISOString();
  const action = `${payPagePath(input.tradeNo)}?lang=${input.lang}`;
  const csrf = input.csrfField
    ? `\n          <input type="hidden" name="${e(input.csrfField.name)}" value="${e(input.csrfField.value)}">`
    : '';
  const form = (result: 'paid' | 'failed', label: string, className: string) => `
        <form method="post" action="${e(action)}">
          <input type="hidden" name="result" value="${result}">${csrf}
          <button type="submit" class="${className}">${e(label)}</button>
        </form>`;
  return `      <p class="expiry" id="expiry" role="timer" data-now="${now}" data-expires-at="${expiresAt}" data-label-left="${e(t.timeLeft)}" data-label-expired="${e(t.expiredTitle)}">
        <span class="expiry-label">${e(t.expiresAt)}</span>
        <time class="expiry-value" datetime="${expiresAt}">${formatUtc(expiresAt)}</time>
      </p>
      <div class="actions">${form('paid', t.pay, 'pay')}${form('failed', t.fail, 'fail')}
      </div>
      <p class="note">${e(t.sandboxNote)}</p>`;
}

function renderResult(
  outcome: Exclude<PayPageOutcome, 'payable'>,
  returnUrl: string | null,
  t: PayPageTexts,
): string {
  const e = escapeHtml;
  const { title, body, icon: picture } = RESULT_PANELS[outcome];
  const link = returnUrl
    ? `\n        <a class="return" href="${e(returnUrl)}" rel="noopener noreferrer">${e(t.returnToMerchant)}</a>`
    : '';
  return `      <section class="result result-${outcome}" role="status">
        ${picture}
        <h2>${e(t[title])}</h2>
        <p>${e(t[body])}</p>${link}
      </section>`;
}

// Counts down from the server's now to expiresAt (the client's clock only measures the elapsed time), in
// mm:ss, once a second; at zero it says so and disables the buttons (the server refuses a late POST anyway).
// Also disables both buttons once one is pressed, so a double tap posts once.
const COUNTDOWN_SCRIPT = `
(function () {
  var box = document.getElementById('expiry');
  if (!box) return;
  var label = box.querySelector('.expiry-label');
  var value = box.querySelector('.expiry-value');
  var buttons = document.querySelectorAll('.actions button');
  var left = Date.parse(box.getAttribute('data-expires-at')) - Date.parse(box.getAttribute('data-now'));
  var started = Date.now();
  var timer;
  function disableButtons() {
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
  }
  function pad(n) {
    return n < 10 ? '0' + n : String(n);
  }
  function tick() {
    var ms = left - (Date.now() - started);
    if (!(ms > 0)) {
      clearInterval(timer);
      label.textContent = box.getAttribute('data-label-expired');
      value.textContent = '00:00';
      box.className = 'expiry expired';
      disableButtons();
      return;
    }
    var seconds = Math.ceil(ms / 1000);
    label.textContent = box.getAttribute('data-label-left');
    value.textContent = pad(Math.floor(seconds / 60)) + ':' + pad(seconds % 60);
  }
  var forms = document.querySelectorAll('.actions form');
  for (var i = 0; i < forms.length; i++) {
    forms[i].addEventListener('submit', function () {
      setTimeout(disableButtons, 0);
    });
  }
  tick();
  timer = setInterval(tick, 1000);
})();
`;

const STYLES = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh; background: #f3f4f6; color: #111827;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", "Noto Sans", sans-serif;
}
.sandbox-banner {
  margin: 0; padding: 10px 16px; text-align: center; font-weight: 600; font-size: 14px;
  color: #78350f; background: repeating-linear-gradient(135deg, #fde68a 0 14px, #fcd34d 14px 28px);
  border-bottom: 1px solid #f59e0b;
}
.card {
  width: calc(100% - 32px); max-width: 440px; margin: 32px auto; padding: 28px 24px 20px;
  background: #fff; border-radius: 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08), 0 8px 24px rgba(0,0,0,.06);
}
.label { margin: 0; color: #6b7280; font-size: 13px; }
.merchant { text-align: center; }
.merchant h1 { margin: 2px 0 0; font-size: 20px; font-weight: 600; overflow-wrap: anywhere; }
.merchant-no { margin: 2px 0 0; color: #6b7280; font-size: 13px; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.amount-block { margin: 24px 0 16px; text-align: center; }
.amount { margin: 4px 0 0; font-size: 40px; font-weight: 700; line-height: 1.15; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.currency { margin: 2px 0 0; color: #6b7280; font-size: 13px; letter-spacing: .08em; }
.details { margin: 0; padding: 12px 0; border-top: 1px solid #e5e7eb; border-bottom: 1px solid #e5e7eb; }
.details div { display: flex; flex-wrap: wrap; column-gap: 16px; padding: 4px 0; font-size: 14px; }
.details dt { color: #6b7280; }
.details dd { margin: 0 0 0 auto; text-align: right; min-width: 0; }
.expiry { margin: 16px 0; text-align: center; font-size: 14px; color: #374151; }
.expiry .expiry-value { font-weight: 600; font-variant-numeric: tabular-nums; }
.expiry.expired { color: #b91c1c; }
.actions { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.actions form { margin: 0; }
.actions button {
  width: 100%; min-height: 48px; padding: 12px; border: 0; border-radius: 10px; cursor: pointer;
  font: inherit; font-weight: 600; color: #fff;
}
.actions .pay { background: #16a34a; }
.actions .pay:hover { background: #15803d; }
.actions .fail { background: #dc2626; }
.actions .fail:hover { background: #b91c1c; }
.actions button:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
.actions button:disabled { opacity: .5; cursor: not-allowed; }
.note { margin: 14px 0 0; color: #6b7280; font-size: 13px; text-align: center; }
.result { margin: 20px 0 4px; padding: 20px 16px; border-radius: 12px; text-align: center; }
.result h2 { margin: 4px 0; font-size: 20px; }
.result p { margin: 0; }
.result-icon { display: block; margin: 0 auto 4px; }
.result-paid { background: #f0fdf4; color: #166534; }
.result-failed { background: #fef2f2; color: #991b1b; }
.result-closed, .result-expired { background: #f3f4f6; color: #374151; }
.return {
  display: inline-block; margin-top: 16px; padding: 10px 20px; border-radius: 10px;
  background: #2563eb; color: #fff; font-weight: 600; text-decoration: none;
}
.return:hover { background: #1d4ed8; }
.qr { margin: 8px auto 12px; text-align: center; }
.qr svg { width: 220px; height: 220px; display: block; margin: 0 auto; }
.qr figcaption { margin-top: 4px; color: #374151; font-size: 14px; font-weight: 600; }
.payload { margin: 2px 0 12px; padding: 8px; background: #f3f4f6; border-radius: 8px; font-size: 12px; }
.details.transfer { margin-top: 8px; }
.details .reference dd { font-weight: 700; color: #1d4ed8; }
.languages { display: flex; justify-content: center; flex-wrap: wrap; gap: 4px 16px; margin-top: 20px; font-size: 13px; }
.languages a { color: #2563eb; text-decoration: none; }
.languages a[aria-current] { color: #111827; font-weight: 600; }
@media (max-width: 360px) {
  .actions { grid-template-columns: 1fr; }
  .amount { font-size: 32px; }
}
`;
