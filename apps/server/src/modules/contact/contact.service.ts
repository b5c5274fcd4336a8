import type { Contact, ContactChannel } from '@paydesk/shared/contact/contact.schemas.ts';
import type { Config } from '../../config.ts';

export const CONTACT_LANGUAGES = ['en', 'zh-cn', 'vi'] as const;
export type ContactLanguage = (typeof CONTACT_LANGUAGES)[number];

const HOURS_TEXT: Record<ContactLanguage, Record<Config['support']['days'], string>> = {
  en: { everyday: 'Every day, {hours} ({zone})', weekdays: 'Monday to Friday, {hours} ({zone})' },
  'zh-cn': { everyday: '每天 {hours}（{zone}）', weekdays: '周一至周五 {hours}（{zone}）' },
  vi: { everyday: 'Hằng ngày, {hours} ({zone})', weekdays: 'Thứ Hai đến Thứ Sáu, {hours} ({zone})' },
};

/**
 * The console's language rule (spec section 1): en is English, vi Vietnamese, anything else Chinese. An
 * explicit ?lang= wins over the browser's Accept-Language.
 */
export function contactLanguageOf(
  lang: string | undefined,
  acceptLanguage: string | undefined,
): ContactLanguage {
  const pick = (value: string) => {
    const code = value.trim().toLowerCase();
    if (code === 'en' || code.startsWith('en-')) return 'en';
    if (code === 'vi' || code.startsWith('vi-')) return 'vi';
    return 'zh-cn';
  };
  if (lang) return pick(lang);
  const first = acceptLanguage?.split(',')[0]?.split(';')[0];
  return first ? pick(first) : 'zh-cn';
}

/** Contact us (DESIGN section 5): the support channels of the configuration, with a link for each. */
export function contactOf(support: Config['support'], language: ContactLanguage): Contact {
  const channels: ContactChannel[] = [];
  if (support.telegram) {
    const name = support.telegram.replace(/^@/, '');
    channels.push({ kind: 'telegram', value: `@${name}`, url: `https://t.me/${name}` });
  }
  if (support.whatsapp) {
    channels.push({
      kind: 'whatsapp',
      value: support.whatsapp,
      url: `https://wa.me/${support.whatsapp.replace(/[^0-9]/g, '')}`,
    });
  }
  if (support.email) channels.push({ kind: 'email', value: support.email, url: `mailto:${support.email}` });
  const hours = support.hours
    ? HOURS_TEXT[language][support.days]
        .replace('{hours}', support.hours.replace('-', '–'))
        .replace('{zone}', support.timezone)
    : null;
  return { channels, hours, language };
}
