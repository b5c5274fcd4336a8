import { and, eq, getTableName, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce } from '../../db/client.ts';
import type { ExportColumn } from '../exports/index.ts';
import { orderRollup } from './list-kit.ts';
import type { OrderTable } from './order-rollups.ts';

/** An order row as the parts below read it (collections and payouts). */
type OrderRow = {
  tradeNo: string;
  outTradeNo: string;
  amountMinor: bigint;
  feeMinor: bigint;
  currency: string;
};

/**
 * What the collection and payout lists declare alike (spread into defineList): filtered by our number,
 * the merchant's number and status, searched by either number, amount and fee summed from the order
 * rollups (kind: their name in order_hourly).
 */
export const orderListParts = <T extends OrderTable>(table: T, kind: 'collection' | 'payout') => ({
  table,
  filters: {
    tradeNo: { column: table.tradeNo, query: 'trade_no' as const },
    outTradeNo: { column: table.outTradeNo, query: 'out_trade_no' as const },
    status: { column: table.status, query: 'status' as const },
  },
  numbers: ['tradeNo', 'outTradeNo'] as const,
  sums: {
    amountMinor: { name: 'amount', of: (r: OrderRow) => r.amountMinor, sql: table.amountMinor },
    feeMinor: { name: 'fee', of: (r: OrderRow) => r.feeMinor, sql: table.feeMinor },
  },
  rollup: orderRollup(kind),
});

/** The channel's own number for an order (the spec's outNo), empty until the channel gave one. */
export const channelRefColumn = <R extends { channelRef: string | null }>(): ExportColumn<R> => ({
  title: { en: 'Associated order number', 'zh-cn': '关联订单号', vi: 'Mã đơn liên kết' },
  type: 'text',
  value: (r) => r.channelRef,
});

/** The first columns of an order list's export: both numbers, amount, fee and currency. */
export const orderColumns = <R extends OrderRow>(): ExportColumn<R>[] => [
  {
    title: { en: 'Order number', 'zh-cn': '订单号', vi: 'Mã đơn hàng' },
    type: 'text',
    value: (r) => r.tradeNo,
  },
  {
    title: { en: 'Merchant order number', 'zh-cn': '商户订单号', vi: 'Mã đơn hàng của thương nhân' },
    type: 'text',
    value: (r) => r.outTradeNo,
  },
  {
    title: { en: 'Amount', 'zh-cn': '金额', vi: 'Số tiền' },
    type: 'amount',
    value: (r, f) => f.amount(r.amountMinor),
  },
  {
    title: { en: 'Service fee', 'zh-cn': '手续费', vi: 'Phí dịch vụ' },
    type: 'amount',
    value: (r, f) => f.amount(r.feeMinor),
  },
  { title: { en: 'Currency', 'zh-cn': '币种', vi: 'Tiền tệ' }, type: 'text', value: (r) => r.currency },
];

/**
 * An order of this merchant by our number or by the merchant's own; another merchant's is none. A named
 * statement built once per table and number (preparedOnce): a gateway refund reads its order this way on
 * every call, and building the select cost more Node time than PostgreSQL spends running it.
 */
export async function orderOfMerchant<T extends OrderTable>(
  db: DbOrTx,
  table: T,
  merchantId: number,
  ref: { tradeNo?: string; outTradeNo?: string },
): Promise<T['$inferSelect'] | undefined> {
  const by = ref.tradeNo !== undefined ? 'tradeNo' : ref.outTradeNo !== undefined ? 'outTradeNo' : undefined;
  if (!by) return undefined;
  const name = `order_of_merchant_${getTableName(table)}_${by}`;
  const [row] = await preparedOnce(db, name, (on) =>
    on
      .select()
      .from(table as OrderTable)
      .where(
        and(eq(table.merchantId, sql.placeholder('merchantId')), eq(table[by], sql.placeholder('number'))),
      )
      .prepare(name),
  ).execute({ merchantId, number: ref[by] });
  return row as T['$inferSelect'] | undefined;
}
