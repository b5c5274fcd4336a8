import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/client.ts';
import { ledgerAccounts } from '../../src/db/schema/index.ts';

/** The merchant's available and locked accounts as stored, or undefined before its first credit. */
export async function balanceRow(db: DbOrTx, merchantId: number) {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balanceMinor: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.merchantId, merchantId), isNotNull(ledgerAccounts.merchantId)));
  if (rows.length === 0) return undefined;
  const of = (kind: string) => rows.find((r) => r.kind === kind)?.balanceMinor ?? 0n;
  return { availableMinor: of('merchant_available'), lockedMinor: of('merchant_locked') };
}

/**
 * The books' two global facts, read straight from the tables: the journal entries that do not sum to zero
 * per currency, and the currencies whose accounts do not sum to zero (the trial balance).
 */
export async function booksOutOfBalance(db: DbOrTx) {
  const entries = await queryRows<{ entry_id: unknown }>(
    db,
    sql`select p.entry_id from postings p join ledger_accounts a on a.id = p.account_id
        group by p.entry_id, a.currency having sum(p.amount_minor) <> 0`,
  );
  const currencies = await queryRows<{ currency: string }>(
    db,
    sql`select currency from ledger_accounts group by currency having sum(balance_minor) <> 0`,
  );
  const drifted = await queryRows<{ code: string }>(
    db,
    sql`select a.code from ledger_accounts a
        left join (select account_id, sum(amount_minor) as total from postings group by account_id) s
          on s.account_id = a.id
        where a.balance_minor <> coalesce(s.total, 0)`,
  );
  return {
    unbalancedEntries: entries.map((e) => Number(e.entry_id)),
    unbalancedCurrencies: currencies.map((c) => c.currency),
    driftedAccounts: drifted.map((d) => d.code),
  };
}
