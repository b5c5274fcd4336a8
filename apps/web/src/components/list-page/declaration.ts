import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ExportKind } from '@paydesk/shared/exports/exports.schemas.ts';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type { Currency } from '@paydesk/shared/money.ts';
import type { ListApi } from './list-api.ts';
import type { ListFilterSchema, ListResponse } from './types.ts';

// A list page as a declaration (STYLE.md "The console's list pages"): what each column, filter, sum and
// drawer field shows, by kind; texts are keys of the list's own i18n namespace. declaredListPage draws it.

type Field<Row> = keyof Row & string;

/** What a custom cell may read besides its row. */
export type CellContext = {
  t: TFunction;
  /** The signed-in merchant's currency: the sums' (rows carry their own where they differ). */
  merchantCurrency: Currency;
  /** The user's time zone (DateTime shows times in it already). */
  timeZone: string;
};

/** A status and its tag: the label is `<labels>.<value>` of the list's namespace. */
export type StatusTag = { labels: string; colors: Record<string, string> };

/** One value of a row, drawn by its kind; the same kinds serve columns, drawer fields and sums. */
export type Cell<Row> =
  /** The value as it is ('-' when there is none); copyable in a drawer. */
  | { kind: 'text'; field: Field<Row>; copyable?: boolean }
  /**
   * A decimal string in a currency: the row's `currency` (the merchant's for a sum) unless `currency` names
   * another field of the row or gives its code. The unit ("Yuan", "USD") follows unless `unit: 'none'`.
   */
  | {
      kind: 'money';
      field: Field<Row>;
      currency?: { field: Field<Row> } | { code: Currency };
      signed?: boolean;
      unit?: 'code' | 'none';
    }
  /** A timestamp in the user's zone. */
  | { kind: 'time'; field: Field<Row> }
  | ({ kind: 'status'; field: Field<Row> } & StatusTag)
  /** A number, grouped ("4,321"). */
  | { kind: 'count'; field: Field<Row> }
  | { kind: 'custom'; render: (row: Row, context: CellContext) => ReactNode };

/** A text of the list: a key of its namespace, or words built from t (and the row, for a drawer label). */
export type Words<Row = never> = string | ((t: TFunction, row: Row) => string);

export type ColumnDeclaration<Row> = Cell<Row> & {
  key: string;
  title: Words;
  width?: number;
  /** Money and counts are on the right already. */
  align?: 'right';
};

export type FilterDeclaration<Name extends string> =
  | { kind: 'text'; name: Name; label: string; placeholder: string; width?: number }
  /** One of `options`; their labels are `<labels>.<value>` of the namespace, or the values themselves. */
  | {
      kind: 'select';
      name: Name;
      label: string;
      placeholder: string;
      options: readonly string[];
      labels?: string;
      width?: number;
    }
  | { kind: 'timeRange' | 'dateRange'; from: Name; to: Name; label: string; placeholder: [string, string] };

/** What a sum reads: the answer's `meta.sums` beside the rest of its `meta`. */
export type SumRow<Meta extends { sums?: object }> = Omit<Meta, 'sums'> & NonNullable<Meta['sums']>;

export type SumDeclaration<Sums> = Cell<Sums> & { key: string; label: string };

/** A message above the drawer's fields, shown when `when` holds (by default: when `field` has a value). */
export type AlertDeclaration<Detail> = {
  type: 'error' | 'info';
  title: string;
  field?: Field<Detail>;
  when?: (detail: Detail) => boolean;
  testId?: string;
};

export type DrawerField<Detail> = Cell<Detail> & {
  key: string;
  label: Words<Detail>;
  /** Left out (not dashed) when the detail has no value for it. */
  omitEmpty?: boolean;
};

export type DrawerSection<Detail> =
  /** The order's steps, `<steps>.<step>` of the namespace, each at its time (`<name>-timeline`). */
  | {
      kind: 'timeline';
      field: Field<Detail>;
      colors: Record<string, string>;
      steps: string;
      title: string;
      empty: string;
    }
  /**
   * Its callbacks and their attempts (`<name>-callbacks`); users with `perm` may resend the latest (without
   * `perm`, or an api without the notify endpoint, they are read-only).
   */
  | { kind: 'callbacks'; field: Field<Detail>; perm?: Perm }
  /** Its attempts on channels: channel, the channel's reference, outcome, times (`<name>-attempts`). */
  | { kind: 'attempts'; field: Field<Detail> }
  | { kind: 'custom'; title: string; render: (detail: Detail, context: CellContext) => ReactNode };

/**
 * A drawer field that shows what the list's column of that key shows, labelled with its title: the key, or
 * the key with the field's own options (`{ column: 'tradeNo', copyable: true }`). The detail a drawer reads
 * has the row's fields (and more), so the column's cell draws it alike.
 */
export type ColumnField = string | { column: string; copyable?: true; omitEmpty?: true };

export type DetailDeclaration<Detail, Field = DrawerField<Detail>> = {
  /** The drawer's title: `key` of the namespace (`detail.title` by default), given the row's id as `param`. */
  title: { key?: string; param: string };
  alerts?: AlertDeclaration<Detail>[];
  fields: Field[];
  sections?: DrawerSection<Detail>[];
};

/** A list's drawer as declared: its fields may name the list's columns (ColumnField). */
export type ListDetailDeclaration<Detail> = DetailDeclaration<Detail, DrawerField<Detail> | ColumnField>;

export type ListDeclaration<
  Schema extends ListFilterSchema,
  Response extends ListResponse<object>,
  Detail = Response['data'][number],
> = {
  /** Names the parts tests find: `<name>-sums`, `<name>-timeline`, `<name>-callbacks`. */
  name: string;
  /** The i18n namespace its texts are keys of. */
  namespace: string;
  /** The page's title, a key of the route names (`routes:payments`). */
  title: string;
  /** The filters the URL holds, parsed by this shared schema. */
  query: Schema;
  api: ListApi<z.output<Schema>, Response, Detail>;
  rowKey: keyof Response['data'][number] & string;
  columns: ColumnDeclaration<Response['data'][number]>[];
  filters?: FilterDeclaration<keyof z.output<Schema> & string>[];
  /** The sums of the whole filter: fields of `meta.sums` (and of `meta`: its `total`). */
  sums?: SumDeclaration<SumRow<Response['meta']>>[];
  /** Where the empty list's two texts are: `<empty>.none` (nothing yet), `<empty>.filtered`; `empty` by default. */
  empty?: string;
  /** The Export button's kind (the server's export of the same filters). */
  export?: ExportKind;
  /** The detail drawer: the detail endpoint's answer when the api has one, else the row. */
  detail?: ListDetailDeclaration<Detail>;
  /** Tighter cells for a list of many columns. */
  size?: 'large' | 'middle';
};
