import { z } from 'zod';
import { NotifyUrlSchema } from '../collections/collections.schemas.ts';
import { ModeSchema } from '../modes/modes.schemas.ts';
import { StepUpFieldsSchema } from '../security/security.schemas.ts';

// ---- GET /api/merchant/access-key (ROOT): the merchant's key, or null before one is issued.

export const AccessKeySchema = z.object({
  /**
   * Which of the merchant's two keys (DESIGN 12): a live_ or test_ key, or an older live one. The server
   * always sends it; optional so that a console built before modes still reads the answer.
   */
  mode: ModeSchema.optional(),
  merchant_no: z.string(),
  access_key: z.string(),
  /** The default callback address of the merchant's orders; null when none is set. */
  notify_url: z.string().nullable(),
  /** ISO 8601, UTC. */
  created_at: z.string(),
  rotated_at: z.string().nullable(),
});
export type AccessKey = z.infer<typeof AccessKeySchema>;
export const AccessKeyResponseSchema = z.object({ data: AccessKeySchema.nullable() });

// GET /api/merchant/access-key/secret?payment_password=&code=
export const AccessKeySecretSchema = z.object({
  /** Always sent (see AccessKeySchema.mode). */
  mode: ModeSchema.optional(),
  secret: z.string(),
  /** whsec_<base64 of 32 bytes>: verifies our callbacks (Standard Webhooks). */
  webhook_secret: z.string(),
});
export type AccessKeySecret = z.infer<typeof AccessKeySecretSchema>;
export const AccessKeySecretResponseSchema = z.object({ data: AccessKeySecretSchema });

// PUT /api/merchant/access-key/regenerate {payment_password, code} -> the new key and its secrets
export const RegeneratedAccessKeyResponseSchema = z.object({
  data: AccessKeySchema.extend(AccessKeySecretSchema.shape),
});

// PUT /api/merchant/access-key/update {notify_url}
/**
 * PUT /api/merchant/access-key/update {mode, notify_url}: one notify URL per key, as Stripe has one webhook
 * endpoint per mode; `mode` names the key (absent: live).
 */
export const UpdateNotifyUrlBodySchema = z.object({
  mode: ModeSchema.optional(),
  notify_url: NotifyUrlSchema.nullable().optional(),
});
export type UpdateNotifyUrlBody = z.infer<typeof UpdateNotifyUrlBodySchema>;

// ---- IP whitelist

export const IpWhitelistSchema = z.object({ ips: z.array(z.string()) });
export const IpWhitelistResponseSchema = z.object({ data: IpWhitelistSchema });
export type IpWhitelist = z.infer<typeof IpWhitelistSchema>;

/** PUT /api/merchant/ip-address: one IPv4, IPv6 or CIDR per line; a wrong line is named in errors.ip_address. */
export const UpdateIpWhitelistBodySchema = StepUpFieldsSchema.extend({
  ip_address: z
    .string({ error: 'The IP whitelist is required.' })
    .max(20_000, 'The IP whitelist is at most 20,000 characters.'),
});
export type UpdateIpWhitelistBody = z.infer<typeof UpdateIpWhitelistBodySchema>;
export const IP_WHITELIST_MAX_ENTRIES = 100;
