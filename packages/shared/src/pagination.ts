import { z } from 'zod';
import { ModeSchema } from './modes/modes.schemas.ts';

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
  /** The mode the list is of (DESIGN 12): the console's X-Mode; set on every signed-in list answer. */
  mode: ModeSchema.optional(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

/** A query's empty field ("" or null, as a cleared form sends it) is no filter at all. */
export const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * A list read by position: ?cursor= is the position after the last row of the previous page
 * (meta.next_cursor). With it the page is read from that position on the index instead of skipping
 * (page - 1) x per_page rows, so deep pages stay fast; page still says which page it is.
 */
export const CursorListQuerySchema = ListQuerySchema.extend({
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'The cursor is not valid.')
      .optional(),
  ),
});
export type CursorListQuery = z.infer<typeof CursorListQuerySchema>;

export const CursorListMetaSchema = ListMetaSchema.extend({
  /** Pass as ?cursor= with page + 1 for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type CursorListMeta = z.infer<typeof CursorListMetaSchema>;
