import { and, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { type Batcher, createBatcher } from '../../db/batcher.ts';
import { type Db, type DbOrTx, preparedOnce, type Tx, withKeptPlans } from '../../db/client.ts';
import { insertReturningWith } from '../../db/rows.ts';
import { attemptInsertCte } from '../channels/index.ts';
import type { ExportColumn } from '../exports/index.ts';
import { columnsFor, TITLE, titles } from './export-columns.ts';
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
  filters: { tradeNo: 'trade_no', outTradeNo: 'out_trade_no', status: 'status' } as const,
  numbers: ['tradeNo', 'outTradeNo'] as const,
  sums: { amountMinor: 'amount', feeMinor: 'fee' },
  rollup: orderRollup(kind),
});

/**
 * The column makers for an order list's export (columnsFor), with the columns collections and payouts
 * share: `head()`, both numbers, amount, fee and currency, their first columns; `channelRef()`, the
 * channel's own number for the order (the spec's outNo), empty until the channel gave one.
 */
export function orderColumnsFor<R extends OrderRow & { channelRef: string | null }>(_table?: {
  $inferSelect: R;
}) {
  const col = columnsFor<R>();
  const head = (): ExportColumn<R>[] => [
    col.text(titles('Order number', '订单号', 'Mã đơn hàng'), (r) => r.tradeNo),
    col.text(
      titles('Merchant order number', '商户订单号', 'Mã đơn hàng của thương nhân'),
      (r) => r.outTradeNo,
    ),
    col.amount(TITLE.amount, (r) => r.amountMinor),
    col.amount(TITLE.serviceFee, (r) => r.feeMinor),
    col.text(TITLE.currency, (r) => r.currency),
  ];
  const channelRef = () =>
    col.text(titles('Associated order number', '关联订单号', 'Mã đơn liên kết'), (r) => r.channelRef);
  return { ...col, head, channelRef };
}

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

type OrderKey = { merchantId: number; tradeNo: string };
const orderReaders = new WeakMap<object, Map<string, Batcher<OrderKey, unknown>>>();

/**
 * orderOfMerchant by our number, for the gateway's hot paths (a refund reads its order on every call):
 * calls that arrive while such reads are running are read together by one statement (one round trip for
 * all, DESIGN 8) instead of one each; each call answers exactly its own order, or none.
 */
export function orderOfMerchantTogether<T extends OrderTable>(
  db: Db,
  table: T,
  merchantId: number,
  tradeNo: string,
): Promise<T['$inferSelect'] | undefined> {
  const name = `orders_of_merchants_${getTableName(table)}`;
  let byTable = orderReaders.get(db);
  if (!byTable) orderReaders.set(db, (byTable = new Map()));
  let reader = byTable.get(name);
  if (!reader) {
    // On the connections that keep one plan per statement (withKeptPlans): a read by key, whatever its
    // values, that PostgreSQL would otherwise plan afresh whenever it costs the run's values lower.
    const kept = withKeptPlans(db);
    reader = createBatcher<OrderKey, unknown>({
      one: (key) => orderOfMerchant(kept, table, key.merchantId, { tradeNo: key.tradeNo }),
      many: async (keys) => {
        const rows = (await preparedOnce(kept, name, (on) =>
          on
            .select()
            .from(table as OrderTable)
            .where(
              sql`(${table.merchantId}, ${table.tradeNo}) in (select k.m, k.t from json_to_recordset(${sql.placeholder('keys')}::json) as k(m bigint, t text))`,
            )
            .prepare(name),
        ).execute({
          keys: JSON.stringify(keys.map((key) => ({ m: key.merchantId, t: key.tradeNo }))),
        })) as (OrderKey & Record<string, unknown>)[];
        const found = new Map(rows.map((row) => [`${row.merchantId}:${row.tradeNo}`, row]));
        return keys.map((key) => found.get(`${key.merchantId}:${key.tradeNo}`));
      },
      // A read writes nothing: a failed statement is every call's answer.
      alone: () => false,
      maxInFlight: 2,
    });
    byTable.set(name, reader);
  }
  return reader.submit({ merchantId, tradeNo }) as Promise<T['$inferSelect'] | undefined>;
}

/** An order by our number, whoever's it is (the system's own follow-ups: failover, channel answers). */
export async function orderByTradeNo<T extends OrderTable>(
  db: DbOrTx,
  table: T,
  tradeNo: string,
): Promise<T['$inferSelect'] | undefined> {
  const [row] = await db
    .select()
    .from(table as OrderTable)
    .where(eq(table.tradeNo, tradeNo));
  return row as T['$inferSelect'] | undefined;
}

/**
 * A new order and its attempt on its channel (one statement), or undefined when the merchant already
 * used its out_trade_no: only the merchant's own number may already exist; a clash of ours (trade_no) is
 * an error to retry.
 */
export const insertOrder = <T extends OrderTable>(
  db: DbOrTx,
  table: T,
  kind: 'collection' | 'payout',
  row: T['$inferInsert'],
): Promise<T['$inferSelect'] | undefined> =>
  insertReturningWith(
    db,
    table,
    row,
    'on conflict (merchant_id, out_trade_no) do nothing',
    attemptInsertCte(kind, 'ins'),
  );

/**
 * A routed order moved onto another channel by its failover (DESIGN 14): only while it is still on
 * `from.channelId` and in `from.status` (and `from.also` holds, when given). The moved order, or undefined
 * when it changed meanwhile.
 */
export async function moveOrderToChannel<T extends OrderTable & { channelId: PgColumn }>(
  tx: Tx,
  table: T,
  id: number,
  from: { channelId: number; status: string; also?: SQL },
  set: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect'] | undefined> {
  const [row] = await tx
    .update(table as OrderTable)
    .set(set as PgUpdateSetSource<OrderTable>)
    .where(
      and(eq(table.id, id), eq(table.channelId, from.channelId), eq(table.status, from.status), from.also),
    )
    .returning();
  return row as T['$inferSelect'] | undefined;
}
