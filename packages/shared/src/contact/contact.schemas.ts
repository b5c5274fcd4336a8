import { z } from 'zod';

// ---- GET /api/merchant/contact: the support channels (configuration), in the user's language.

export const CONTACT_CHANNEL_KINDS = ['telegram', 'whatsapp', 'email'] as const;
export type ContactChannelKind = (typeof CONTACT_CHANNEL_KINDS)[number];

export const ContactChannelSchema = z.object({
  kind: z.enum(CONTACT_CHANNEL_KINDS),
  /** What to copy: "@paydesk_support", "+852 5555 0100", "support@paydesk.example". */
  value: z.string(),
  /** Opens the channel: https://t.me/..., https://wa.me/..., mailto:... */
  url: z.string(),
});
export type ContactChannel = z.infer<typeof ContactChannelSchema>;

export const ContactSchema = z.object({
  channels: z.array(ContactChannelSchema),
  /** Support hours in the requested language ("Every day, 09:00-21:00 (UTC+8)"). */
  hours: z.string().nullable(),
  /** The language the texts are in: en, zh-cn or vi. */
  language: z.string(),
});
export type Contact = z.infer<typeof ContactSchema>;
export const ContactResponseSchema = z.object({ data: ContactSchema });
