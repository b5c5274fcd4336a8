import { sql } from 'drizzle-orm';
import type { Cursor } from '../../../lib/cursor.ts';
import type { OrderList } from '../../lists/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind, type ExportKindHandler, type ExportSum } from './export-kind.ts';
import { defineSqlExportKind } from './sql-export-kind.ts';

/**
 * A console list's export, made from its declaration (modules/lists list-kit.ts): the same filters from the
 * same query schema, the list's view permission, its rows newest first up to the snapshot's id, its export
 * columns, and its sums keyed as the list's meta.sums (in the currency the list shows them in). A list
 * whose export has `sqlColumns` is written by PostgreSQL itself (defineSqlExportKind).
 */
export function listExportKind<Row extends Cursor, N extends string, K extends string>(
  list: OrderList<Row, N, K>,
): ExportKindHandler {
  const sums = Object.values<OrderList<Row>['sums'][string]>(list.sums);
  const common = {
    kind: list.export.kind,
    title: list.export.title,
    perm: list.perm,
    query: list.query,
    filter: list.filterOf,
    maxId: (db: Parameters<typeof exportsRepository.maxIdOf>[0]) => exportsRepository.maxIdOf(db, list.table),
    count: async (db: Parameters<typeof list.totals>[0], filter: ReturnType<typeof list.filterOf>) =>
      (await list.totals(db, filter)).count,
  };
  if (list.export.sqlColumns) {
    return defineSqlExportKind({
      ...common,
      table: list.table,
      createdAt: list.table.createdAt,
      id: list.table.id,
      where: (filter, maxId) => list.conditions({ ...filter, maxId }),
      columns: list.export.sqlColumns,
      sums: Object.fromEntries(sums.map((sum) => [sum.name, sql`sum(${sum.sql})`])),
    });
  }
  return defineExportKind({
    ...common,
    rows: (db, filter, maxId, limit, after) =>
      list.page(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
    columns: list.export.columns ?? [],
    sums: Object.fromEntries(
      sums.map((sum): [string, ExportSum<Row>] => [
        sum.name,
        { of: (row) => sum.of(row) ?? 0n, ...(sum.currency ? { in: sum.currency } : {}) },
      ]),
    ),
  });
}
