import { type Currency, exponentOf, fromMinor } from '@paydesk/shared';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type { ExportKind, ExportLocale } from '@paydesk/shared/exports/exports.schemas.ts';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { copyOut, type Db, type DbOrTx, queryRows } from '../../../db/client.ts';
import { columnLetters, numberStyle, type Row } from '../cells.ts';
import {
  countLines,
  csvRecordEnds,
  sqlAmount,
  sqlLabel,
  sqlLocalTime,
  sqlNeutralized,
  sqlXlsxRow,
} from '../sql-cells.ts';
import {
  type ExportChunk,
  type ExportKindHandler,
  type ExportScope,
  kindHead,
  type Titles,
  writerColumns,
} from './export-kind.ts';

/** How a kind's cells are computed by PostgreSQL: as `CellFormat`, on columns instead of values. */
export type SqlCellFormat = {
  locale: ExportLocale;
  currency: Currency;
  amount: (minor: SQLWrapper, currency?: Currency) => SQL;
  time: (at: SQLWrapper) => SQL;
  label: (labels: Record<string, Titles>, code: SQLWrapper) => SQL;
};

export type SqlExportColumn = {
  title: Titles;
  /** `amount` and `integer` columns are numbers in the file; `text` columns are checked for formulas. */
  type: 'text' | 'amount' | 'integer';
  currency?: Currency;
  /** The cell as text (null: an empty cell). */
  value: (format: SqlCellFormat) => SQL;
  /**
   * Text of ours (times, translated labels, currency codes), never a formula and with no character to
   * escape: written as it is (merchants' text, such as notes, is neutralised and escaped).
   */
  plain?: boolean;
};

/**
 * A list whose rows never change once written (fund flows), exported by PostgreSQL itself: its cells are
 * computed in SQL, and on PostgreSQL the whole file body is one `COPY ... TO STDOUT` (CSV quoting by
 * PostgreSQL, XLSX rows built in SQL) streamed into the file; on PGlite the same cells are read in keyset
 * batches and encoded by the writers. DESIGN 8: an export at a fair fraction of COPY's own speed.
 */
export type SqlExportKindDefinition<Query, Filter> = {
  kind: ExportKind;
  title: Titles;
  perm: Perm;
  query: z.ZodType<Query>;
  filter: (query: Query, scope: ExportScope) => Filter;
  /** The list's table, read newest first by (createdAt, id) as its indexes serve it. */
  table: PgTable;
  createdAt: PgColumn;
  id: PgColumn;
  /** The filter's rows with ids up to maxId. */
  where: (filter: Filter, maxId: number) => SQL;
  maxId: (db: DbOrTx) => Promise<number>;
  count: (db: DbOrTx, filter: Filter) => Promise<number>;
  columns: SqlExportColumn[];
  /** Aggregates over the exported rows, in minor units of the file's currency (keyed as meta.sums). */
  sums: Record<string, SQL>;
};

/** A COPY of millions of rows may run longer than a request's statement limit. */
const COPY_TIMEOUT_MS = 60 * 60_000;

export function defineSqlExportKind<Query, Filter>(
  definition: SqlExportKindDefinition<Query, Filter>,
): ExportKindHandler {
  const { table, createdAt, id } = definition;
  const newestFirst = sql`${createdAt} desc nulls last, ${id} desc nulls last`;
  const { head, filterOf } = kindHead(definition);
  return {
    ...head,
    prepare(filters, scope) {
      const filter = filterOf(filters, scope);
      let sums: Promise<Record<string, string>> | undefined;
      const sumsOf = async (db: DbOrTx, maxId: number, currency: Currency) => {
        const keys = Object.keys(definition.sums);
        const [row] = await queryRows<Record<string, unknown>>(
          db,
          sql`select ${sql.join(
            keys.map((key) => sql`coalesce(${definition.sums[key]}, 0)::text as ${sql.identifier(key)}`),
            sql`, `,
          )} from ${table} where ${definition.where(filter, maxId)}`,
        );
        return Object.fromEntries(
          keys.map((key) => [key, fromMinor(BigInt(String(row?.[key] ?? 0)), currency)]),
        );
      };
      /** The rows' cells c0, c1, ... with their position (k_at as text keeps its microseconds). */
      const source = (maxId: number, cells: SQL[], after?: { at: string; id: number }, limit?: number) => sql`
        select ${createdAt} as k_at, ${createdAt}::text as k_at_text, ${id} as k_id,
               ${sql.join(
                 cells.map((cell, i) => sql`${cell} as ${sql.identifier(`c${i}`)}`),
                 sql`, `,
               )}
        from ${table}
        where ${definition.where(filter, maxId)}${
          after ? sql` and (${createdAt}, ${id}) < (${after.at}::timestamptz, ${after.id})` : sql``
        }
        order by ${newestFirst}${limit ? sql` limit ${limit}` : sql``}`;
      return {
        maxId: (db) => definition.maxId(db),
        count: (db) => definition.count(db, filter),
        columns: (locale, currency) => writerColumns(definition.columns, locale, currency),
        async *chunks(db, maxId, options): AsyncGenerator<ExportChunk> {
          const { locale, currency } = options;
          // The rows never change: their sums are read beside the file's body.
          sums = sumsOf(db, maxId, currency);
          sums.catch(() => undefined);
          const format: SqlCellFormat = {
            locale,
            currency,
            amount: (minor, other) => sqlAmount(minor, other ?? currency),
            time: (at) => sqlLocalTime(at, scope.timeZone),
            label: (labels, code) =>
              sqlLabel(code, Object.fromEntries(Object.entries(labels).map(([c, t]) => [c, t[locale]]))),
          };
          const cells = definition.columns.map((c) => c.value(format));
          const cell = (i: number) => sql`v.${sql.identifier(`c${i}`)}`;
          const inOrder = sql`order by v.k_at desc nulls last, v.k_id desc nulls last`;
          const copied =
            options.format === 'csv'
              ? copyOut(
                  db as Db,
                  sql`select ${sql.join(
                    definition.columns.map((c, i) =>
                      c.type === 'text' && !c.plain ? sqlNeutralized(cell(i)) : cell(i),
                    ),
                    sql`, `,
                  )} from (${source(maxId, cells)}) v ${inOrder}`,
                  { format: 'csv', timeoutMs: COPY_TIMEOUT_MS },
                )
              : copyOut(
                  db as Db,
                  sql`select ${sqlXlsxRow(
                    definition.columns.map((c, i) => ({
                      value: cell(i),
                      text: c.type === 'text',
                      plain: c.plain === true,
                      style: c.type === 'amount' ? numberStyle(exponentOf(c.currency ?? currency)) : 1,
                      letter: columnLetters(i),
                    })),
                    sql`v.n`,
                  )} from (
                    select ((row_number() over (order by s.k_at desc nulls last, s.k_id desc nulls last) - 1)
                             % ${sql.raw(String(options.rowsPerSheet - 1))} + 2)::text as n, s.*
                    from (${source(maxId, cells)}) s) v ${inOrder}`,
                  { format: 'text', timeoutMs: COPY_TIMEOUT_MS },
                );
          if (copied) {
            const encode = options.format === 'csv' ? csvRecordEnds() : undefined;
            for await (const chunk of await copied) {
              yield encode ? encode(chunk as Buffer) : { data: chunk as Buffer, records: countLines(chunk) };
            }
            return;
          }
          // PGlite: keyset batches of cells, encoded by the writer.
          let after: { at: string; id: number } | undefined;
          for (;;) {
            const rows = await queryRows<Record<string, string | null>>(
              db,
              source(maxId, cells, after, options.batchSize),
            );
            if (rows.length === 0) return;
            const last = rows[rows.length - 1]!;
            after = { at: String(last.k_at_text), id: Number(last.k_id) };
            yield {
              rows: rows.map((row): Row => cells.map((_, i) => row[`c${i}`] ?? null)),
            };
            if (rows.length < options.batchSize) return;
          }
        },
        sums: (db, maxId, currency) => sums ?? sumsOf(db, maxId, currency),
      };
    },
  };
}
