import type { Currency } from '@paydesk/shared';
import type { ExportColumn, Titles } from '../exports/index.ts';

/**
 * Export columns in one line each: a list's `columns` reads as its headers and the fields under them. The
 * titles every list shares (the same words in all three languages) live in TITLE; a title of one
 * list only is written where it is used, with `titles(en, zh-cn, vi)`.
 */

/** A text in the console's three languages. */
export const titles = (en: string, zhCn: string, vi: string): Titles => ({ en, 'zh-cn': zhCn, vi });

/** Column titles (and status words) that read the same in every list that shows them. */
export const TITLE = {
  status: titles('Status', '状态', 'Trạng thái'),
  reviewStatus: titles('Review status', '审核状态', 'Trạng thái duyệt'),
  amount: titles('Amount', '金额', 'Số tiền'),
  serviceFee: titles('Service fee', '手续费', 'Phí dịch vụ'),
  currency: titles('Currency', '币种', 'Tiền tệ'),
  channel: titles('Channel', '通道', 'Kênh'),
  note: titles('Note', '备注', 'Ghi chú'),
  reason: titles('Reason', '原因', 'Lý do'),
  failureReason: titles('Failure reason', '失败原因', 'Lý do thất bại'),
  networkType: titles('Network type', '网络类型', 'Loại mạng'),
  walletAddress: titles('Wallet address', '钱包地址', 'Địa chỉ ví'),
  rate: titles('Rate', '汇率', 'Tỷ giá'),
  created: titles('Created', '创建时间', 'Thời gian tạo'),
  finished: titles('Finished', '完成时间', 'Thời gian hoàn tất'),
  settled: titles('Settled', '结算时间', 'Thời gian quyết toán'),
} satisfies Record<string, Titles>;

/** Order statuses that read the same in every list that has them (a list's labels name the others). */
export const STATUS_TITLE = {
  pendingReview: titles('Pending review', '待审核', 'Chờ duyệt'),
  processing: titles('Processing', '处理中', 'Đang xử lý'),
  failed: titles('Failed', '失败', 'Thất bại'),
  rejected: titles('Rejected', '已驳回', 'Bị từ chối'),
} satisfies Record<string, Titles>;

/** A text cell: the row's own text (checked for formulas by the writers), empty when null. */
const textColumn = <R>(title: Titles, value: (row: R) => string | null): ExportColumn<R> => ({
  title,
  type: 'text',
  value,
});

/** A whole number. */
const integerColumn = <R>(title: Titles, value: (row: R) => number): ExportColumn<R> => ({
  title,
  type: 'integer',
  value: (row) => String(value(row)),
});

/** An amount in minor units, in the file's currency or in `currency`; empty when null. */
const amountColumn = <R>(
  title: Titles,
  minor: (row: R) => bigint | null,
  currency?: Currency,
): ExportColumn<R> => ({
  title,
  type: 'amount',
  ...(currency ? { currency } : {}),
  value: (row, f) => {
    const value = minor(row);
    return value === null ? null : f.amount(value, currency);
  },
});

/** A time in the user's zone; empty when null. */
const timeColumn = <R>(title: Titles, at: (row: R) => Date | null): ExportColumn<R> => ({
  title,
  type: 'text',
  value: (row, f) => f.time(at(row)),
});

/** A code (a status, a type) as its label in the file's language. */
const labelColumn = <R>(
  title: Titles,
  labels: Record<string, Titles>,
  code: (row: R) => string,
): ExportColumn<R> => ({ title, type: 'text', value: (row, f) => f.label(labels, code(row)) });

/**
 * The column makers for one list's rows: `const col = columnsFor(table)` (or `columnsFor<Row>()`), then
 * one line a column: `col.text(title, (r) => r.field)`, `col.amount(...)`, `col.time(...)`, ...
 */
export const columnsFor = <R>(_table?: { $inferSelect: R }) => ({
  text: textColumn<R>,
  integer: integerColumn<R>,
  amount: amountColumn<R>,
  time: timeColumn<R>,
  label: labelColumn<R>,
});
