import type { Perm } from '@paydesk/shared/auth/roles.ts';
import type {
  ColumnDeclaration,
  DrawerField,
  DrawerSection,
  FilterDeclaration,
  StatusTag,
  SumDeclaration,
} from './declaration.ts';

// The parts every order list (collections, payouts, and refunds next) declares alike, under the same keys
// of its namespace: columns.*, filters.*, sums.*, detail.*.

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

/**
 * An order's columns: its numbers, amount and fee, status (then `afterStatus`), channel, creation time and
 * the time it got where it was going (`doneAt`, titled `columns.<key>`).
 */
export const orderColumns = <Row extends Order>(
  status: StatusTag,
  {
    afterStatus = [],
    doneAt,
  }: { afterStatus?: ColumnDeclaration<Row>[]; doneAt: { key: string; field: keyof Row & string } },
): ColumnDeclaration<Row>[] => [
  { key: 'tradeNo', title: 'columns.tradeNo', kind: 'text', field: 'trade_no' },
  { key: 'outTradeNo', title: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no' },
  { key: 'amount', title: 'columns.amount', kind: 'money', field: 'amount' },
  { key: 'fee', title: 'columns.fee', kind: 'money', field: 'fee' },
  statusColumn(status),
  ...afterStatus,
  { key: 'channel', title: 'columns.channel', kind: 'text', field: 'channel' },
  { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
  { key: doneAt.key, title: `columns.${doneAt.key}`, kind: 'time', field: doneAt.field },
];

/** A status column or drawer field, `columns.status` of the namespace. */
export const statusColumn = <Row extends { status: string }>(tag: StatusTag): ColumnDeclaration<Row> => ({
  key: 'status',
  title: 'columns.status',
  kind: 'status',
  field: 'status',
  ...tag,
});

/**
 * The drawer's first fields of an order: its numbers (copyable), status (and `afterStatus`), money, currency
 * and channel.
 */
export const orderFields = <Detail extends Order>(
  status: StatusTag,
  afterStatus: DrawerField<Detail>[] = [],
): DrawerField<Detail>[] => [
  { key: 'tradeNo', label: 'columns.tradeNo', kind: 'text', field: 'trade_no', copyable: true },
  { key: 'outTradeNo', label: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no', copyable: true },
  { key: 'status', label: 'columns.status', kind: 'status', field: 'status', ...status },
  ...afterStatus,
  { key: 'amount', label: 'columns.amount', kind: 'money', field: 'amount' },
  { key: 'fee', label: 'columns.fee', kind: 'money', field: 'fee' },
  { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
  { key: 'channel', label: 'columns.channel', kind: 'text', field: 'channel' },
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
  { kind: 'text', name: 'trade_no', label: 'columns.tradeNo', placeholder: 'filters.tradeNo', width: 240 },
  {
    kind: 'text',
    name: 'out_trade_no',
    label: 'columns.outTradeNo',
    placeholder: 'filters.outTradeNo',
    width: 260,
  },
];

/** One of the statuses (`status.<value>` of the namespace, or `labels.<value>`). */
export const statusFilter = (options: readonly string[], labels = 'status'): FilterDeclaration<'status'> => ({
  kind: 'select',
  name: 'status',
  label: 'columns.status',
  placeholder: 'filters.status',
  options,
  labels,
});

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
  { key: 'amount', label: 'sums.amount', kind: 'money', field: 'amount' },
  { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
  { key: 'fee', label: 'sums.fee', kind: 'money', field: 'fee' },
];
