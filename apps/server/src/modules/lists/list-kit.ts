import { type Currency, fromMinor } from '@paydesk/shared';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type { ExportKind } from '@paydesk/shared/exports/exports.schemas.ts';
import { and, eq, gte, lt, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { type Cursor, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { localRangeToUtc } from '../../lib/timezone.ts';
import { type Guards, PURE_READ, type Viewer, viewerOf } from '../../plugins/auth-context.ts';
import type { ExportColumn, SqlExportColumn, Titles } from '../exports/index.ts';
import { listPage, type ListTable, type Position } from './keyset.ts';
import { listTotals, sumsRowsWhere } from './rollup-sums.ts';
import { orderTotals, type OrderTable } from './order-rollups.ts';

/**
 * The order-list kit (DESIGN 5 and 8). A console list is ONE declaration, `defineList({...})`, in a file
 * `<list>.list.ts` of its module: the table, its filters (each a column, and the field of the list's query
 * schema in packages/shared that fills it), which filters are a search by number, its sums (a row's part in
 * JS and in SQL, the meta.sums key, the currency when not the merchant's), where the sums of a whole filter
 * come from (`rollup`: orderRollup, listRollup, or a module's own reader; never a scan of the matching rows
 * where a rollup exists), the row as the API shows it, the path, the view permission, the response schema
 * and the export's title and columns. The kit makes the rest, the same for every list:
 *
 * - `page`: a page newest first off the list's index, by keyset cursor or page number, up to an export's
 *   snapshot id (keyset.ts listPage);
 * - `totals`: the sums of the whole filter from the rollup;
 * - `read`: the service's list (cursor paging, one row more than the page to know there is a next one, the
 *   page and the sums at once; a search by number reads the page alone, carrying the request's session
 *   confirmation, and makes the sums of its rows when it holds every match);
 * - `listRoutes(app, ctx, lists)`: the GET route with its query and response schemas and its guard;
 * - the export kind (modules/exports `listExportKind`): same filters, the snapshot, the columns, the sums
 *   keyed as meta.sums.
 *
 * A filter or a sum named as the table's column declares that column alone: `status: 'status'` is the
 * column status filled by the query field status, `grossMinor: 'gross'` sums the column grossMinor as
 * meta.sums.gross (`{ name, currency }` when its currency is not the merchant's). The long form (a
 * `column`; `of` and `sql`) is for the others: another column, or a sum of an expression.
 *
 * To add a list (refunds): write `refunds/refunds.list.ts` with `defineList`, hand it to `listRoutes` in
 * the module's register function, export it from the module's index.ts, and add its kind to
 * `exportKindHandlers` (modules/exports/kinds/index.ts) and to EXPORT_KINDS in packages/shared. A new
 * rollup (its table, triggers and migration) is written once beside orderRollup and listRollup.
 */

/** The query every list takes: packages/shared's CursorListQuerySchema and the creation time range. */
type ListQuery = { page: number; per_page: number; cursor?: string; start_time?: string; end_time?: string };

/** A list's filter as its page and sums read it: the merchant, its filters by name, [from, to) in UTC. */
export type ListFilter<N extends string> = {
  merchantId: number;
  from?: Date;
  to?: Date;
  /** An export's snapshot: rows up to this id (row reads only). */
  maxId?: number;
} & Partial<Record<N, string>>;

/** One of a list's sums. */
export type ListSum<Row> = {
  /** Its key in meta.sums and in an export's sums. */
  name: string;
  /** A row's part (a null adds nothing, as SQL's sum): the sums of a page that holds every match. */
  of: (row: Row) => bigint | null;
  /** A row's part in SQL: the rows read at a range's edges, an export made by PostgreSQL. */
  sql: SQLWrapper;
  /** Its currency when not the merchant's (top-ups and withdrawals are sent in USDT). */
  currency?: Currency;
};

export type ListTotals<K extends string> = { count: number } & Record<K, bigint>;

/** What a rollup reader knows of its list. */
export type ListShape<N extends string, K extends string> = {
  table: ListTable;
  filters: Record<N, { column: PgColumn }>;
  numbers: readonly string[];
  sums: Record<K, { sql: SQLWrapper }>;
};

/** How the sums of a whole filter are read: from rollups (DESIGN 8). */
export type ListRollup<N extends string, K extends string> = (
  db: DbOrTx,
  filter: ListFilter<N>,
  list: ListShape<N, K>,
) => Promise<ListTotals<K>>;

/**
 * A list's export: its kind, its title (the sheet's and the file's name) and its columns, either cells the
 * writers make of each row (`columns`) or cells PostgreSQL computes (`sqlColumns`: a list whose rows never
 * change, written by PostgreSQL itself, modules/exports defineSqlExportKind).
 */
export type ListExport<Row> = {
  kind: ExportKind;
  title: Titles;
  columns?: ExportColumn<Row>[];
  sqlColumns?: SqlExportColumn[];
};

/** A filter's column and the query field that fills it. */
export type ListFilterColumn<Query> = { column: PgColumn; query: keyof Query & string };

/** A filter as a list declares it: the query field alone when its column is the table's of its name. */
export type DeclaredFilter<Query> = (keyof Query & string) | ListFilterColumn<Query>;

/**
 * A sum as a list declares it: its meta.sums name (and currency) alone when it sums the table's column
 * of its key, else the whole ListSum.
 */
export type DeclaredSum<Row> = string | { name: string; currency?: Currency } | ListSum<Row>;

export type ListDeclaration<T extends ListTable, N extends string, K extends string, Query, Item> = {
  /** The GET route's path. */
  path: string;
  /** Who may see it (and export it, besides export:create). */
  perm: Perm;
  /** The list's query schema (packages/shared): the route's querystring and an export's filters. */
  query: z.ZodType<Query>;
  /** The list's response schema: which fields leave the server. */
  response: z.ZodType;
  table: T;
  /**
   * By name (the filter's key in ListFilter): the column it matches and the query field that fills it; a
   * filter named as a column of the table declares its query field alone.
   */
  filters: { [F in N]: F extends keyof T['$inferSelect'] ? DeclaredFilter<Query> : ListFilterColumn<Query> };
  /** The filters that are a search by number (a row or a few): the page is the whole answer. */
  numbers: readonly NoInfer<N>[];
  /** By key (in ListTotals); one named as a bigint column of the table may declare its name alone. */
  sums: {
    [S in K]: T['$inferSelect'] extends Record<S, bigint | null>
      ? DeclaredSum<T['$inferSelect']>
      : ListSum<T['$inferSelect']>;
  };
  rollup: ListRollup<NoInfer<N>, NoInfer<K>>;
  view: (row: T['$inferSelect'], viewer: Viewer) => Item;
  export: ListExport<T['$inferSelect']>;
};

export type OrderList<
  Row extends Cursor = Cursor,
  N extends string = string,
  K extends string = string,
  Item = unknown,
> = {
  path: string;
  perm: Perm;
  query: z.ZodType<ListQuery>;
  response: z.ZodType;
  table: ListTable;
  sums: Record<K, ListSum<Row>>;
  export: ListExport<Row>;
  /** The filter of a query, for a merchant whose times are read in `timeZone`. */
  filterOf(query: ListQuery, scope: { merchantId: number; timeZone: string }): ListFilter<N>;
  page(db: DbOrTx, filter: ListFilter<N>, limit: number, position: Position): Promise<Row[]>;
  totals(db: DbOrTx, filter: ListFilter<N>): Promise<ListTotals<K>>;
  /** The filter as a condition on the table, up to `filter.maxId` (an export made by PostgreSQL). */
  conditions(filter: ListFilter<N>): SQL;
  read(db: DbOrTx, viewer: Viewer, query: ListQuery): Promise<ListPage<Item>>;
};

export type ListPage<Item> = {
  data: Item[];
  meta: {
    page: number;
    per_page: number;
    total: number;
    sums: Record<string, string | number>;
    next_cursor: string | null;
  };
};

/** The sum of a bigint column over rows (a null adds nothing, as SQL's sum). */
const sumOf = <R>(rows: R[], pick: (row: R) => bigint | null): bigint =>
  rows.reduce((total, row) => total + (pick(row) ?? 0n), 0n);

export function defineList<
  T extends ListTable,
  N extends string,
  K extends string,
  Query extends ListQuery,
  Item,
>(list: ListDeclaration<T, N, K, Query, Item>): OrderList<T['$inferSelect'] & Cursor, N, K, Item> {
  type Row = T['$inferSelect'] & Cursor;
  const { table } = list;
  const columnOf = (name: string) => (table as unknown as Record<string, PgColumn>)[name];
  // The declaration's shorthands spelled out: a filter's column, a sum's row part and SQL.
  const filters = Object.entries(list.filters as Record<string, DeclaredFilter<Query>>).map(
    ([name, f]): [N, ListFilterColumn<Query>] => [
      name as N,
      typeof f === 'string' ? { column: columnOf(name), query: f } : f,
    ],
  );
  const sums = Object.entries(list.sums as Record<string, DeclaredSum<Row>>).map(
    ([key, s]): [K, ListSum<Row>] => {
      if (typeof s === 'object' && 'of' in s) return [key as K, s];
      const { name, currency } = typeof s === 'string' ? { name: s, currency: undefined } : s;
      const of = (row: Row) => (row as unknown as Record<string, bigint | null>)[key];
      return [key as K, { name, of, sql: columnOf(key), ...(currency ? { currency } : {}) }];
    },
  );
  const sumsByKey = Object.fromEntries(sums) as Record<K, ListSum<Row>>;
  const shape: ListShape<N, K> = {
    table,
    filters: Object.fromEntries(filters) as Record<N, ListFilterColumn<Query>>,
    numbers: list.numbers,
    sums: sumsByKey,
  };

  const filterOf = (query: ListQuery, scope: { merchantId: number; timeZone: string }): ListFilter<N> =>
    ({
      merchantId: scope.merchantId,
      ...Object.fromEntries(filters.map(([name, f]) => [name, (query as Query)[f.query]])),
      ...localRangeToUtc(query.start_time, query.end_time, scope.timeZone),
    }) as ListFilter<N>;

  const page = (db: DbOrTx, filter: ListFilter<N>, limit: number, position: Position): Promise<Row[]> =>
    listPage<Row>(
      db,
      table,
      {
        merchantId: filter.merchantId,
        equal: Object.fromEntries(
          filters.map(([name, f]) => [name, { column: f.column, value: filter[name] }]),
        ),
        from: filter.from,
        to: filter.to,
        maxId: filter.maxId,
      },
      limit,
      position,
    );

  const totals = (db: DbOrTx, filter: ListFilter<N>) => list.rollup(db, filter, shape);

  const totalsOf = (rows: Row[]) =>
    ({
      count: rows.length,
      ...Object.fromEntries(sums.map(([key, sum]) => [key, sumOf(rows, sum.of)])),
    }) as ListTotals<K>;

  const conditions = (filter: ListFilter<N>): SQL =>
    and(
      eq(table.merchantId, filter.merchantId),
      ...filters.map(([name, f]) => (filter[name] ? eq(f.column, filter[name]) : undefined)),
      filter.from ? gte(table.createdAt, filter.from) : undefined,
      filter.to ? lt(table.createdAt, filter.to) : undefined,
      filter.maxId !== undefined ? lte(table.id, filter.maxId) : undefined,
    )!;

  /**
   * One page newest first, by cursor or by page number (DESIGN 5): one row more than the page tells
   * whether a next page exists (`meta.next_cursor`); the sums and the total cover the whole filter.
   */
  async function read(db: DbOrTx, viewer: Viewer, query: ListQuery): Promise<ListPage<Item>> {
    const filter = filterOf(query, viewer);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const position = { cursor, offset: (query.page - 1) * query.per_page };
    let rows: Row[];
    let whole: ListTotals<K>;
    if (list.numbers.some((name) => filter[name]) && !cursor && query.page === 1) {
      // A search by number: the first page read alone, carrying the session's confirmation, and the sums
      // made of its rows when it holds every match (one statement, not two).
      rows = await page(db, filter, query.per_page + 1, { ...position, confirmsSession: true });
      whole = rows.length <= query.per_page ? totalsOf(rows) : await totals(db, filter);
    } else {
      // Both at once: on a pool they take two connections, so the answer waits for the slower one only.
      [rows, whole] = await Promise.all([page(db, filter, query.per_page + 1, position), totals(db, filter)]);
    }
    const shown = rows.slice(0, query.per_page);
    const last = shown.at(-1);
    return {
      data: shown.map((row) => list.view(row, viewer)),
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: whole.count,
        sums: {
          count: whole.count,
          ...Object.fromEntries(
            sums.map(([key, sum]) => [sum.name, fromMinor(whole[key], sum.currency ?? viewer.currency)]),
          ),
        },
        next_cursor: rows.length > query.per_page && last ? encodeCursor(last) : null,
      },
    };
  }

  return {
    path: list.path,
    perm: list.perm,
    query: list.query as unknown as z.ZodType<ListQuery>,
    response: list.response,
    table,
    sums: sumsByKey,
    export: list.export as unknown as ListExport<Row>,
    filterOf,
    page,
    totals,
    conditions,
    read,
  };
}

/** What listRoutes serves of a list. */
type ServedList = Pick<OrderList, 'path' | 'perm' | 'query' | 'response' | 'read'>;

/** Each list's GET route: its query and response schemas, its view permission, its read. */
export function listRoutes(
  app: FastifyInstance,
  { db, guards }: { db: DbOrTx; guards: Guards },
  lists: ServedList[],
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const list of lists) {
    r.get(
      list.path,
      {
        config: PURE_READ,
        onRequest: guards.requirePerm(list.perm),
        schema: { querystring: list.query, response: { 200: list.response } },
      },
      async (request) => list.read(db, viewerOf(request), request.query),
    );
  }
}

/**
 * Collections' and payouts' sums (count, amount, fee) from order_hourly, order_daily and order_minutely
 * (order-rollups.ts orderTotals); its filters are named tradeNo, outTradeNo and status.
 */
export const orderRollup =
  (
    kind: 'collection' | 'payout',
  ): ListRollup<'tradeNo' | 'outTradeNo' | 'status', 'amountMinor' | 'feeMinor'> =>
  (db, filter, list) =>
    orderTotals(db, kind, list.table as OrderTable, filter);

/**
 * Top-ups', withdrawals' and settlements' sums from list_daily and list_hourly (see their schema for what
 * a, b and c hold in each list): `status` and `facet` are the filters the rollup keeps apart; a search by
 * number or an export's snapshot reads the rows.
 */
export const listRollup =
  <const N extends string, const K extends string>(
    name: 'recharge' | 'withdrawal' | 'settlement' | 'refund',
    columns: { status?: N; facet: N; a: K; b?: K; c?: K },
  ): ListRollup<N, K> =>
  async (db, filter, list) => {
    // The rows' own values; listTotals adds merchantId, status and facet.
    const values: Record<string, unknown> = {
      ...Object.fromEntries(Object.keys(list.filters).map((key) => [key, filter[key as N] || undefined])),
      maxId: filter.maxId,
    };
    const equal = Object.fromEntries(
      Object.entries<{ column: PgColumn }>(list.filters).map(([key, f]) => [key, f.column]),
    );
    const summed = (key: K | undefined) => (key ? sql`coalesce(sum(${list.sums[key].sql}), 0)` : sql`0`);
    const t = await listTotals(
      db,
      name,
      {
        merchantId: filter.merchantId,
        status: columns.status && filter[columns.status],
        facet: filter[columns.facet],
        from: filter.from,
        to: filter.to,
        rowsOnly: list.numbers.some((key) => filter[key as N]) || filter.maxId !== undefined,
      },
      {
        values,
        select: (from, to) => sql`
        select count(*) as rows, ${summed(columns.a)} as a, ${summed(columns.b)} as b, ${summed(columns.c)} as c
          from ${list.table}
          where ${sumsRowsWhere(list.table, values, equal, from, to)}`,
      },
    );
    return {
      count: t.count,
      [columns.a]: t.a,
      ...(columns.b ? { [columns.b]: t.b } : {}),
      ...(columns.c ? { [columns.c]: t.c } : {}),
    } as ListTotals<K>;
  };
