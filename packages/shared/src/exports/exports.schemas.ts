import { z } from 'zod';
import { ListMetaSchema, ListQuerySchema } from '../pagination.ts';

// Offline exports (DESIGN sections 4, 5 and 9): a task per export, run in the background, its file kept
// 7 days. `kind` names the list it exports; `filters` is that list's query as the page holds it.

/** The lists that export. A new one is a name here and one file in apps/server/src/modules/exports/kinds/. */
export const EXPORT_KINDS = [
  'collections',
  'settlements',
  'payouts',
  'recharges',
  'withdrawals',
  'fund_flows',
  'daily_reports',
  'refunds',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const ExportKindSchema = z.enum(EXPORT_KINDS, {
  error: `The kind must be one of: ${EXPORT_KINDS.join(', ')}.`,
});

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const ExportFormatSchema = z.enum(EXPORT_FORMATS, { error: 'The format must be csv or xlsx.' });

/** waiting -> exporting -> success | failed (the spec's "Waiting for execution", "Exporting", ...). */
export const EXPORT_STATUSES = ['waiting', 'exporting', 'success', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export const ExportStatusSchema = z.enum(EXPORT_STATUSES);

/** The languages a file's column titles and labels are written in (the console's three). */
export const EXPORT_LOCALES = ['en', 'zh-cn', 'vi'] as const;
export type ExportLocale = (typeof EXPORT_LOCALES)[number];
export const ExportLocaleSchema = z.enum(EXPORT_LOCALES, { error: 'The locale must be en, zh-cn or vi.' });

/** Days an export's file is kept before it is deleted. */
export const EXPORT_KEEP_DAYS = 7;

/** Export tasks of a merchant that may wait (waiting or exporting) at once; more -> 429 too_many_exports. */
export const EXPORT_MAX_WAITING = 10;

// ---- POST /api/merchant/exports

export const CreateExportBodySchema = z.object({
  kind: ExportKindSchema,
  format: ExportFormatSchema,
  /** The list's query (its filters; paging is ignored). Checked against that list's own schema. */
  filters: z.record(z.string(), z.unknown()).default({}),
  /** The file's language; else the Accept-Language header; else zh-cn (the console's default). */
  locale: ExportLocaleSchema.optional(),
});
export type CreateExportBody = z.input<typeof CreateExportBodySchema>;

export const ExportTaskSchema = z.object({
  id: z.number(),
  kind: ExportKindSchema,
  format: ExportFormatSchema,
  status: ExportStatusSchema,
  filters: z.record(z.string(), z.unknown()),
  locale: ExportLocaleSchema,
  /** Rows written so far and rows the filter matched when the task was created (the progress bar). */
  rows_done: z.number(),
  rows_expected: z.number(),
  /** Rows in the file, once written. */
  row_count: z.number().nullable(),
  /** The file's sums, keyed as the list's meta.sums (decimal strings), once written. */
  sums: z.record(z.string(), z.string()).nullable(),
  size: z.number().nullable(),
  /** What the download is saved as. */
  file_name: z.string(),
  /** Why it failed (failed tasks only). */
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** When the file is deleted; after it, the task stays listed without a download. */
  expires_at: z.string().nullable(),
  expired: z.boolean(),
});
export type ExportTask = z.infer<typeof ExportTaskSchema>;
export const ExportTaskResponseSchema = z.object({ data: ExportTaskSchema });

// ---- GET /api/merchant/exports

export const ExportListQuerySchema = ListQuerySchema;
export type ExportListQuery = z.infer<typeof ExportListQuerySchema>;
export const ExportListResponseSchema = z.object({ data: z.array(ExportTaskSchema), meta: ListMetaSchema });
export type ExportListResponse = z.infer<typeof ExportListResponseSchema>;
