import { z } from 'zod';

export const ListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const ListMetaSchema = z.object({
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
  /** true when total was capped rather than counted to the end (show "10000+"). */
  total_capped: z.boolean().optional(),
  sums: z.record(z.string(), z.string()).optional(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: ListMetaSchema });
