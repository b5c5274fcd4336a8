import { type Currency, exponentOf, fromMinor } from '@paydesk/shared';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type { ExportFormat, ExportKind, ExportLocale } from '@paydesk/shared/exports/exports.schemas.ts';
import type { z } from 'zod';
import type { DbOrTx } from '../../../db/client.ts';
import type { Cursor } from '../../../lib/cursor.ts';
import { ValidationError } from '../../../lib/errors.ts';
import { localTimeFormatter, type Row, type WriterColumn } from '../cells.ts';

/** A text in the console's three languages. */
export type Titles = Record<ExportLocale, string>;

/** How a kind's cells are written: amounts as exact decimals, times in the user's zone, labels translated. */
export type CellFormat = {
  locale: ExportLocale;
  currency: Currency;
  /** In the file's currency unless another is named (top-ups and withdrawals are sent in USDT). */
  amount: (minor: bigint, currency?: Currency) => string;
  time: (at: Date | null) => string;
  label: (labels: Record<string, Titles>, code: string) => string;
};

export type ExportColumn<R> = {
  title: Titles;
  /** `amount` and `integer` columns are numbers in the file; `text` columns are checked for formulas. */
  type: 'text' | 'amount' | 'integer';
  /** An `amount` column in another currency than the merchant's (its decimals follow it). */
  currency?: Currency;
  value: (row: R, format: CellFormat) => string | null;
};

/**
 * One of a kind's sums: a row's figure added up (the default), or the first or last row's (a balance at
 * the start or end of the range); written in the file's currency, in another one, or as a whole number.
 */
export type ExportSum<R> =
  | ((row: R) => bigint)
  | { of: (row: R) => bigint; in?: Currency | 'integer'; keep?: 'sum' | 'first' | 'last' };

/** Who an export is for: the repository filter is built for this merchant, its times read in this zone. */
export type ExportScope = { merchantId: number; timeZone: string };

/**
 * One exportable list, in one file of kinds/: its columns, its rows (the list's own repository with its
 * filter, read newest first by keyset, up to the snapshot's id) and its sums (keyed as the list's meta.sums).
 */
export type ExportKindDefinition<Query, Filter, R extends Cursor> = {
  kind: ExportKind;
  /** The list's name: the sheet's name and the start of the file's name. */
  title: Titles;
  /** Who may export it: the list's view permission (besides export:create). */
  perm: Perm;
  /** The list's query schema: an export takes the same filters as the list page. */
  query: z.ZodType<Query>;
  filter: (query: Query, scope: ExportScope) => Filter;
  /** The newest row's id now: the snapshot's upper bound. */
  maxId: (db: DbOrTx) => Promise<number>;
  /** How many rows the filter matches now (the progress bar's 100%). */
  count: (db: DbOrTx, filter: Filter) => Promise<number>;
  /** A batch of rows after the cursor (newest first), with ids up to maxId. */
  rows: (db: DbOrTx, filter: Filter, maxId: number, limit: number, after: Cursor | undefined) => Promise<R[]>;
  columns: ExportColumn<R>[];
  /** Each summed over the exported rows, in minor units. */
  sums: Record<string, ExportSum<R>>;
};

/** A kind with its types closed over: what the service runs. */
export type ExportKindHandler = {
  kind: ExportKind;
  title: Titles;
  perm: Perm;
  /** Checks the filters against the list's schema (422 on a bad one) and binds them to the scope. */
  prepare(filters: Record<string, unknown>, scope: ExportScope): PreparedExport;
};

/** Rows as cells (the writer encodes them), or bytes already in the file's format with their row count. */
export type ExportChunk = { rows: Row[] } | { data: Buffer; records: number };

export type ChunkOptions = {
  batchSize: number;
  locale: ExportLocale;
  currency: Currency;
  format: ExportFormat;
  /** An XLSX sheet's rows, its header included: the rows after continue on the next sheet. */
  rowsPerSheet: number;
};

export type PreparedExport = {
  maxId(db: DbOrTx): Promise<number>;
  count(db: DbOrTx): Promise<number>;
  columns(locale: ExportLocale, currency: Currency): WriterColumn[];
  /** The rows up to maxId, newest first, in chunks. */
  chunks(db: DbOrTx, maxId: number, options: ChunkOptions): AsyncGenerator<ExportChunk>;
  /** The sums of the rows written (call after the last chunk). */
  sums(db: DbOrTx, maxId: number, currency: Currency): Promise<Record<string, string>>;
};

/**
 * What a handler says of its kind (kind, title, view permission), and how it binds an export's filters:
 * checked against the list's query schema (parseFilters), then made the kind's filter for the scope.
 */
export const kindHead = <Query, Filter>(definition: {
  kind: ExportKind;
  title: Titles;
  perm: Perm;
  query: z.ZodType<Query>;
  filter: (query: Query, scope: ExportScope) => Filter;
}) => ({
  head: { kind: definition.kind, title: definition.title, perm: definition.perm },
  filterOf: (filters: Record<string, unknown>, scope: ExportScope) =>
    definition.filter(parseFilters(definition.query, filters), scope),
});

/** An export's filters checked against its list's query schema: 422 naming each bad filter. */
export function parseFilters<Query>(schema: z.ZodType<Query>, filters: Record<string, unknown>): Query {
  const parsed = schema.safeParse(filters);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = `filters.${issue.path.join('.') || 'filters'}`;
    (errors[field] ??= []).push(issue.message);
  }
  throw new ValidationError(errors);
}

/** A kind's columns as the writers take them: titles in the file's language, amounts' decimals. */
export const writerColumns = (
  columns: { title: Titles; type: 'text' | 'amount' | 'integer'; currency?: Currency }[],
  locale: ExportLocale,
  currency: Currency,
): WriterColumn[] =>
  columns.map((c) => ({
    title: c.title[locale],
    type: c.type === 'text' ? 'text' : 'number',
    decimals: c.type === 'amount' ? exponentOf(c.currency ?? currency) : 0,
  }));

export function defineExportKind<Query, Filter, R extends Cursor>(
  definition: ExportKindDefinition<Query, Filter, R>,
): ExportKindHandler {
  const { head, filterOf } = kindHead(definition);
  return {
    ...head,
    prepare(filters, scope) {
      const filter = filterOf(filters, scope);
      const totals = Object.fromEntries(Object.keys(definition.sums).map((key) => [key, 0n]));
      const summers = Object.entries(definition.sums).map(([key, sum]) => {
        const spec = typeof sum === 'function' ? { of: sum } : sum;
        return { key, of: spec.of, in: spec.in, keep: spec.keep ?? 'sum' };
      });
      let seen = false;
      return {
        maxId: (db) => definition.maxId(db),
        count: (db) => definition.count(db, filter),
        columns: (locale, currency) => writerColumns(definition.columns, locale, currency),
        async *chunks(db, maxId, { batchSize, locale, currency }) {
          const format: CellFormat = {
            locale,
            currency,
            amount: (minor, other) => fromMinor(minor, other ?? currency),
            time: localTimeFormatter(scope.timeZone),
            label: (labels, code) => labels[code]?.[locale] ?? code,
          };
          // The next batch is read while this one is written (its position is this batch's last row).
          const read = (after: Cursor | undefined) => {
            const reading = definition.rows(db, filter, maxId, batchSize, after);
            reading.catch(() => undefined);
            return reading;
          };
          let next: Promise<R[]> | null = read(undefined);
          while (next) {
            const rows: R[] = await next;
            const last = rows[rows.length - 1];
            next =
              rows.length === batchSize && last ? read({ createdAt: last.createdAt, id: last.id }) : null;
            if (rows.length === 0) return;
            const cells: Row[] = new Array<Row>(rows.length);
            for (let r = 0; r < rows.length; r++) {
              const row = rows[r]!;
              for (const s of summers) {
                if (s.keep === 'sum') totals[s.key]! += s.of(row);
                else if (s.keep === 'last' || !seen) totals[s.key] = s.of(row);
              }
              seen = true;
              cells[r] = definition.columns.map((c) => c.value(row, format));
            }
            yield { rows: cells };
          }
        },
        sums: async (_db, _maxId, currency) =>
          Object.fromEntries(
            summers.map((s) => [
              s.key,
              s.in === 'integer' ? String(totals[s.key]) : fromMinor(totals[s.key]!, s.in ?? currency),
            ]),
          ),
      };
    },
  };
}
