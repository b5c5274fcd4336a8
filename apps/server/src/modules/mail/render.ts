import type { Locale } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { MAIL_TEMPLATES, type MailContent, type MailTemplate, type MailTemplateParams } from './templates.ts';

/** A mail as it is sent: the subject and its two alternative bodies. */
export type RenderedMail = { subject: string; text: string; html: string };

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A link's address only when it is http(s): a parameter can never become a javascript: link. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : '');

const HTML_LANG: Record<Locale, string> = { en: 'en', 'zh-cn': 'zh-CN', vi: 'vi' };

function textOf(content: MailContent): string {
  const lines = [...content.paragraphs.slice(0, 1)];
  if (content.facts?.length)
    lines.push(content.facts.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (content.action) lines.push(`${content.action.label}:\n${content.action.url}`);
  lines.push(...content.paragraphs.slice(1));
  return `${lines.join('\n\n')}\n`;
}

function htmlOf(content: MailContent, locale: Locale): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const facts = content.facts?.length
    ? `<table style="border-collapse:collapse;margin:0 0 16px">${content.facts
        .map(
          ([label, value]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#666">${escapeHtml(label)}</td><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const url = content.action ? safeUrl(content.action.url) : '';
  const action = content.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 20px;background:#1677ff;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p><p style="margin:0 0 16px;color:#666;font-size:12px;word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : '';
  const [first = '', ...rest] = content.paragraphs;
  return [
    `<!doctype html><html lang="${HTML_LANG[locale]}"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;color:#222;margin:0;padding:24px">',
    '<div style="max-width:560px;margin:0 auto">',
    '<p style="margin:0 0 24px;font-size:18px;font-weight:600">Paydesk</p>',
    p(first),
    facts,
    action,
    ...rest.map(p),
    '</div></body></html>',
  ].join('');
}

/** The template's subject, plain text and HTML in the locale; every parameter is escaped in the HTML. */
export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  params: MailTemplateParams[T],
): RenderedMail {
  const content = (MAIL_TEMPLATES[template][locale] as (p: MailTemplateParams[T]) => MailContent)(params);
  return { subject: content.subject, text: textOf(content), html: htmlOf(content, locale) };
}
