import { and, asc, eq, sql } from 'drizzle-orm';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { merchants, operatorActions } from '../../db/schema/index.ts';

export type MerchantRow = typeof merchants.$inferSelect;
export type OperatorActionRow = typeof operatorActions.$inferSelect;

export const opsRepository = {
  hasMerchants: async (db: DbOrTx): Promise<boolean> => {
    const [row] = await db.select({ id: merchants.id }).from(merchants).limit(1);
    return row !== undefined;
  },

  /** The merchant's row of that mode (both rows carry its number). */
  findMerchantByNo: async (db: DbOrTx, no: string, mode: Mode = 'live'): Promise<MerchantRow | undefined> => {
    const [row] = await db
      .select()
      .from(merchants)
      .where(and(eq(merchants.no, no), eq(merchants.mode, mode)));
    return row;
  },

  listMerchants: (db: DbOrTx, mode: Mode = 'live'): Promise<MerchantRow[]> =>
    db.select().from(merchants).where(eq(merchants.mode, mode)).orderBy(asc(merchants.id)),

  listMerchantsWithBalances: (db: DbOrTx, mode: Mode = 'live') =>
    db
      .select({
        merchant: merchants,
        availableMinor: sql<bigint>`coalesce((select a.balance_minor from ledger_accounts a
          where a.merchant_id = "merchants"."id" and a.kind = 'merchant_available'), 0)`.mapWith(BigInt),
        lockedMinor: sql<bigint>`coalesce((select a.balance_minor from ledger_accounts a
          where a.merchant_id = "merchants"."id" and a.kind = 'merchant_locked'), 0)`.mapWith(BigInt),
      })
      .from(merchants)
      .where(eq(merchants.mode, mode))
      .orderBy(asc(merchants.id)),

  /** The next "M<number>" after the highest one in use (M100001 first). */
  nextMerchantNo: async (db: DbOrTx): Promise<string> => {
    const [row] = await db
      .select({ highest: sql<string | null>`max(substring(${merchants.no} from 2)::bigint)::text` })
      .from(merchants)
      .where(sql`${merchants.no} ~ '^M[0-9]{1,15}$'`);
    const highest = row?.highest ? BigInt(row.highest) : 100000n;
    return `M${highest + 1n}`;
  },

  /**
   * A new merchant: its live row and its test twin (DESIGN 12), in the caller's transaction; undefined
   * when the number is taken.
   */
  insertMerchant: async (
    db: DbOrTx,
    values: Omit<typeof merchants.$inferInsert, 'mode' | 'liveMerchantId'>,
  ): Promise<{ live: MerchantRow; test: MerchantRow } | undefined> => {
    const [live] = await db
      .insert(merchants)
      .values(values)
      .onConflictDoNothing({ target: [merchants.no, merchants.mode] })
      .returning();
    if (!live) return undefined;
    const [test] = await db
      .insert(merchants)
      .values({ ...values, mode: 'test', liveMerchantId: live.id })
      .returning();
    return { live, test };
  },

  /** Claims the idempotency key with a new action; undefined when the key was used before. */
  claimAction: async (
    db: DbOrTx,
    values: typeof operatorActions.$inferInsert,
  ): Promise<OperatorActionRow | undefined> => {
    const insert = db.insert(operatorActions).values(values);
    const [row] = await (
      values.idempotencyKey ? insert.onConflictDoNothing({ target: operatorActions.idempotencyKey }) : insert
    ).returning();
    return row;
  },

  findActionByKey: async (db: DbOrTx, idempotencyKey: string): Promise<OperatorActionRow | undefined> => {
    const [row] = await db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.idempotencyKey, idempotencyKey));
    return row;
  },

  completeAction: async (
    db: DbOrTx,
    id: number,
    values: { merchantId?: number | null; detail: Record<string, unknown> },
  ): Promise<void> => {
    await db.update(operatorActions).set(values).where(eq(operatorActions.id, id));
  },
};
