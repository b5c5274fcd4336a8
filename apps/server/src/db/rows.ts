import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type DbOrTx, queryText } from './client.ts';

// Inserts on the hottest paths (a gateway order, a payout) as constant SQL text: drizzle builds an
// insert's SQL again on every call, which here cost more Node time than PostgreSQL spent running it.
// The text is made once per table and set of given columns; values and returned rows go through the
// columns' own mappings (bigint, Date, JSON), so rows read the same as drizzle's.

type Columns = Record<string, PgColumn>;

const columnsOf = new WeakMap<PgTable, Columns>();

function columns(table: PgTable): Columns {
  let found = columnsOf.get(table);
  if (!found) columnsOf.set(table, (found = getTableColumns(table) as Columns));
  return found;
}

/** The row's given (not undefined) fields, in its own key order. */
export function givenKeys(row: Record<string, unknown>): string[] {
  return Object.keys(row).filter((key) => row[key] !== undefined);
}

/** `"col", "col"` and `$1::type, $2::type` for these keys of the table, numbered from `from`. */
export function columnList(table: PgTable, keys: string[], from = 1) {
  const all = columns(table);
  return {
    names: keys.map((key) => `"${all[key].name}"`).join(', '),
    params: keys.map((key, i) => `$${from + i}::${all[key].getSQLType()}`).join(', '),
  };
}

/** The driver's values of these keys of the row, as the columns map them. */
export function driverValues(table: PgTable, row: Record<string, unknown>, keys: string[]): unknown[] {
  const all = columns(table);
  return keys.map((key) => {
    const value = row[key];
    return value === null ? null : all[key].mapToDriverValue(value);
  });
}

/** A row as returned by `returning *`, read back into the table's typed row. */
export function rowOf<T>(table: PgTable, saved: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns(table))) {
    const value = saved[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T;
}

const insertTexts = new Map<string, string>();

/**
 * `insert into table (given columns) values (...) <tail> returning *`, as a named prepared statement;
 * the new row, or undefined when the tail (`on conflict ... do nothing`) kept it out.
 */
export async function insertReturning<T extends PgTable>(
  db: DbOrTx,
  table: T,
  row: T['$inferInsert'],
  tail = '',
): Promise<T['$inferSelect'] | undefined> {
  const values = row as Record<string, unknown>;
  const keys = givenKeys(values);
  const name = getTableName(table);
  const shape = `${name}|${keys.join(',')}|${tail}`;
  let text = insertTexts.get(shape);
  if (text === undefined) {
    const { names, params } = columnList(table, keys);
    text = `insert into "${name}" (${names}) values (${params}) ${tail} returning *`;
    insertTexts.set(shape, text);
  }
  const [saved] = await queryText<Record<string, unknown>>(db, text, driverValues(table, values, keys));
  return saved ? rowOf<T['$inferSelect']>(table, saved) : undefined;
}

/**
 * insertReturning with CTEs written by the same statement, reading the inserted rows as `ins` (another
 * table's row that goes with each: an order's attempt on its channel).
 */
export async function insertReturningWith<T extends PgTable>(
  db: DbOrTx,
  table: T,
  row: T['$inferInsert'],
  tail: string,
  ctes: string,
): Promise<T['$inferSelect'] | undefined> {
  const values = row as Record<string, unknown>;
  const keys = givenKeys(values);
  const name = getTableName(table);
  const shape = `${name}|${keys.join(',')}|${tail}|${ctes}`;
  let text = insertTexts.get(shape);
  if (text === undefined) {
    const { names, params } = columnList(table, keys);
    text = `with ins as (insert into "${name}" (${names}) values (${params}) ${tail} returning *), ${ctes}
      select * from ins`;
    insertTexts.set(shape, text);
  }
  const [saved] = await queryText<Record<string, unknown>>(db, text, driverValues(table, values, keys));
  return saved ? rowOf<T['$inferSelect']>(table, saved) : undefined;
}

/** A value as JSON can carry it to its column's text form (bigint and Date have no JSON of their own). */
export const jsonValue = (value: unknown) =>
  typeof value === 'bigint' ? String(value) : value instanceof Date ? value.toISOString() : value;

/**
 * A batch's input rows as `json_to_recordset($n::json) as r(...)` reads them: `names` the quoted column
 * names of these keys of the table, `definitions` their `"col" type` list.
 */
export function recordsetColumns(table: PgTable, keys: string[]) {
  const all = columns(table);
  const names = keys.map((key) => `"${all[key].name}"`);
  return { names, definitions: keys.map((key, i) => `${names[i]} ${all[key].getSQLType()}`).join(', ') };
}

/** These keys of the row as one object of a batch's JSON input, by column name (recordsetColumns). */
export function jsonColumns(table: PgTable, row: Record<string, unknown>, keys: string[]) {
  const all = columns(table);
  const values = driverValues(table, row, keys);
  const object: Record<string, unknown> = {};
  keys.forEach((key, i) => (object[all[key].name] = jsonValue(values[i])));
  return object;
}

/** Values given in order as the columns `prefix`1, `prefix`2... of a batch's JSON input. */
export const numberedColumns = (prefix: string, values: unknown[]) =>
  Object.fromEntries(values.map((value, i) => [`${prefix}${i + 1}`, jsonValue(value)]));
