import { z } from 'zod';

// ---- GET /api/merchant/access-key (ROOT): the merchant's key, or null before one is issued.

export const AccessKeySchema = z.object({
  access_key: z.string(),
  /** ISO 8601, UTC. */
  created_at: z.string(),
  rotated_at: z.string().nullable(),
});
export type AccessKey = z.infer<typeof AccessKeySchema>;
export const AccessKeyResponseSchema = z.object({ data: AccessKeySchema.nullable() });
