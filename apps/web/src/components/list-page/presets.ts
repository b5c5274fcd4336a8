import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type {
  ColumnDeclaration,
  DrawerSection,
  FilterDeclaration,
  ListDetailDeclaration,
  StatusTag,
  SumDeclaration,
} from './declaration.ts';

// The parts every order list (collections, payouts) declares alike, under the same keys of its namespace:
// columns.*, filters.*, sums.*, detail.*.

/** The fields an order has whatever its kind. */
type Order = {
  trade_no: string;
  out_trade_no: string;
  status: string;
  amount: string;
  fee: string;
  currency: string;
  channel: string;
  channel_ref: string | null;
  created_at: string;
};
type OrderDetail = Order & { timeline: unknown[]; callbacks: unknown[]; attempts: unknown[] };
/** A drawer's fields, its own or the list's columns'. */
type OrderDrawerFields<Detail> = ListDetailDeclaration<Detail>['fields'];
/** What an order list shows after its status, and the time its orders got where they were going. */
type OrderColumnsOptions<Row> = {
  afterStatus?: ColumnDeclaration<Row>[];
  doneAt: { key: string; field: keyof Row & string };
};

/**
 * What an order list declares alike: its rows by trade number, the order columns (`orderColumns`), filters
 * (its numbers, `statuses`, the time range) and the amount, count and fee of the whole filter.
 */
export const orderList = <Row extends Order>(
  status: StatusTag,
  statuses: readonly string[],
  columns: OrderColumnsOptions<Row>,
) => ({
  rowKey: 'trade_no' as const,
  columns: orderColumns<Row>(status, columns),
  filters: orderFilters(statuses),
  sums: amountCountFeeSums<{ amount: string; count: number; fee: string }>(),
});

/**
 * An order's drawer (of a list of orderColumns), titled `detail.title` with its trade number: the order's
 * fields (`orderFields`, with `afterStatus`) then its own `fields`; its own `sections` (an action first,
 * where it is seen without scrolling), then the timeline in the `steps` colours, the attempts on channels
 * and the callbacks, resent with `notify`.
 */
export const orderDetail = <Detail extends OrderDetail>({
  alerts,
  afterStatus,
  fields,
  sections = [],
  steps,
  notify,
}: Pick<ListDetailDeclaration<Detail>, 'alerts' | 'fields' | 'sections'> & {
  afterStatus?: OrderDrawerFields<Detail>;
  steps: Record<string, string>;
  notify: Perm;
}): ListDetailDeclaration<Detail> => ({
  title: { param: 'tradeNo' },
  alerts,
  fields: [...orderFields<Detail>(afterStatus), ...fields],
  sections: [...sections, ...orderSections<Detail>(steps, notify)],
});

/** A status tag: `<labels>.<value>` of the namespace (`status.<value>` unless said), in these colours. */
export const statusTag = (colors: Record<string, string>, labels = 'status'): StatusTag => ({
  labels,
  colors,
});

/** A status column or drawer field, `columns.status` of the namespace. */
export const statusColumn = <Row extends { status: string }>(tag: StatusTag): ColumnDeclaration<Row> => ({
  key: 'status',
  title: 'columns.status',
  kind: 'status',
  field: 'status',
  ...tag,
});

/**
 * A value of a row (or of the sums) by its kind: its `field`, its words `<group>.<key>` of the list's
 * namespace under `words` (a column's `title`, a sum's `label`), and `more` of its declaration (`currency`,
 * `signed`, `width`, `align`). The field is checked against the list's rows (or sums) where it is declared.
 */
const cellOf =
  <Words extends 'title' | 'label', Kind extends 'text' | 'money' | 'time' | 'count'>(
    words: Words,
    group: string,
    kind: Kind,
  ) =>
  <Field extends string, const More extends object = object>(key: string, field: Field, more?: More) =>
    ({ key, [words]: `${group}.${key}`, kind, field, ...more }) as CellByKind<Words, Kind, Field, More>;

/** What cellOf makes; `more` is read from the call alone, never from where the cell goes. */
type CellByKind<Words extends string, Kind, Field, More> = { key: string; kind: Kind; field: Field } & {
  [words in Words]: string;
} & NoInfer<More>;

/** A column titled `columns.<key>`. */
const columnOf = <Kind extends 'text' | 'money' | 'time' | 'count'>(kind: Kind) =>
  cellOf('title', 'columns', kind);

/**
 * A list's columns by kind (`column.text('refNo', 'ref_no')`): the value as it is ('-' when there is none),
 * a decimal string in the row's currency (or `more.currency`) with its unit, a timestamp in the user's zone,
 * a number grouped; and the status tag (`column.status(tag)`).
 */
export const column = {
  text: columnOf('text'),
  money: columnOf('money'),
  time: columnOf('time'),
  count: columnOf('count'),
  status: statusColumn,
};

/** A sum of the whole filter (a field of the answer's `meta.sums` or `meta`), labelled `sums.<key>`. */
const sumOf = <Kind extends 'money' | 'count'>(kind: Kind) => cellOf('label', 'sums', kind);

/** A list's sums by kind: an amount in the merchant's currency (or `more.currency`), a number grouped. */
export const sum = { money: sumOf('money'), count: sumOf('count') };

/**
 * An order's columns: its numbers, amount and fee, status (then `afterStatus`), channel, creation time and
 * the time it got where it was going (`doneAt`, titled `columns.<key>`).
 */
export const orderColumns = <Row extends Order>(
  status: StatusTag,
  { afterStatus = [], doneAt }: OrderColumnsOptions<Row>,
): ColumnDeclaration<Row>[] => [
  column.text('tradeNo', 'trade_no'),
  column.text('outTradeNo', 'out_trade_no'),
  column.money('amount', 'amount'),
  column.money('fee', 'fee'),
  statusColumn(status),
  ...afterStatus,
  column.text('channel', 'channel'),
  column.time('createdAt', 'created_at'),
  column.time(doneAt.key, doneAt.field),
];

/**
 * The drawer's first fields of an order, as the order columns (orderColumns) show them: its numbers
 * (copyable), status (and `afterStatus`), money, currency and channel.
 */
export const orderFields = <Detail extends Order>(
  afterStatus: OrderDrawerFields<Detail> = [],
): OrderDrawerFields<Detail> => [
  { column: 'tradeNo', copyable: true },
  { column: 'outTradeNo', copyable: true },
  'status',
  ...afterStatus,
  'amount',
  'fee',
  { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
  'channel',
  { key: 'channelRef', label: 'detail.channelRef', kind: 'text', field: 'channel_ref', copyable: true },
];

/**
 * An order's timeline (`detail.steps.<step>`, in these colours), its attempts on channels, and its
 * callbacks, resent with `perm`.
 */
export const orderSections = <Detail extends OrderDetail>(
  colors: Record<string, string>,
  perm: Perm,
): DrawerSection<Detail>[] => [
  timelineSection<Detail>(colors),
  { kind: 'attempts', field: 'attempts' },
  { kind: 'callbacks', field: 'callbacks', perm },
];

/** The drawer's timeline of its `timeline` steps (`detail.steps.<step>`, in these colours). */
export const timelineSection = <Detail extends { timeline: unknown[] }>(
  colors: Record<string, string>,
): DrawerSection<Detail> => ({
  kind: 'timeline',
  field: 'timeline',
  title: 'detail.timeline',
  empty: 'detail.noTimeline',
  steps: 'detail.steps',
  colors,
});

/** An order list's filters: its numbers, its status (one of `statuses`) and the time range. */
export const orderFilters = (
  statuses: readonly string[],
): FilterDeclaration<'trade_no' | 'out_trade_no' | 'status' | 'start_time' | 'end_time'>[] => [
  ...orderNumberFilters(),
  statusFilter(statuses),
  timeRangeFilter(),
];

/** Search by the order number or the merchant's order number. */
const orderNumberFilters = (): FilterDeclaration<'trade_no' | 'out_trade_no'>[] => [
  textFilter('trade_no', 'tradeNo', 240),
  textFilter('out_trade_no', 'outTradeNo', 260),
];

/** Search by a text: the filter `name`, labelled `columns.<key>` and prompting `filters.<key>`. */
const textFilter = <Name extends string>(
  name: Name,
  key: string,
  width?: number,
): FilterDeclaration<Name> => ({
  kind: 'text',
  name,
  label: `columns.${key}`,
  placeholder: `filters.${key}`,
  ...(width === undefined ? {} : { width }),
});

/**
 * One of `options`, labelled `<more.labels>.<value>` of the namespace (else the values themselves): the
 * filter `name`, labelled `columns.<key>` and prompting `filters.<key>`.
 */
const selectFilter = <Name extends string>(
  name: Name,
  key: string,
  options: readonly string[],
  more: { labels?: string; width?: number } = {},
): FilterDeclaration<Name> => ({
  kind: 'select',
  name,
  label: `columns.${key}`,
  placeholder: `filters.${key}`,
  options,
  ...more,
});

/** One of the statuses (`status.<value>` of the namespace, or `labels.<value>`). */
export const statusFilter = (options: readonly string[], labels = 'status'): FilterDeclaration<'status'> =>
  selectFilter('status', 'status', options, { labels });

/** From and to, date and time, read in the user's zone: `start_time` and `end_time`. */
export const timeRangeFilter = (label = 'columns.time'): FilterDeclaration<'start_time' | 'end_time'> => ({
  kind: 'timeRange',
  from: 'start_time',
  to: 'end_time',
  label,
  placeholder: ['filters.startTime', 'filters.endTime'],
});

/** The amount, the count and the fee of the whole filter. */
export const amountCountFeeSums = <
  Sums extends { amount: string; count: number; fee: string },
>(): SumDeclaration<Sums>[] => [
  sum.money('amount', 'amount'),
  sum.count('count', 'count'),
  sum.money('fee', 'fee'),
];

/**
 * A list's filters by kind: a text (`filter.text('ref_no', 'refNo')`), one of some options, one of the
 * statuses (`filter.status(statuses)`), the time range.
 */
export const filter = {
  text: textFilter,
  select: selectFilter,
  status: statusFilter,
  timeRange: timeRangeFilter,
};
