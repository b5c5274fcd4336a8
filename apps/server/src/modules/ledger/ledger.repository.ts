import { and, eq, type SQL, sql } from 'drizzle-orm';
import type {
  FundFlowType,
  HoldType,
  JournalEntryType,
  PlatformAccountKind,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { queryRows, type DbOrTx, type Tx } from '../../db/client.ts';
import { fundFlows, holds, journalEntries, ledgerAccounts } from '../../db/schema/index.ts';

export type FundFlowRow = typeof fundFlows.$inferSelect;
export type HoldRow = typeof holds.$inferSelect;

// Raw rows differ by driver (strings on node-postgres, numbers or bigints on PGlite): convert here.
const toNumber = (value: unknown): number => Number(value);

/** Entries and holds carry the moment they were written, to the millisecond (the console's precision). */
const NOW_MS = sql`date_trunc('milliseconds', clock_timestamp())`;
const timeOrNow = (at: Date | undefined) => (at ? sql`${at.toISOString()}::timestamptz` : NOW_MS);

/** The code of a merchant's account: one available and one locked per merchant. */
export const merchantAccountCode = (merchantId: number, account: 'available' | 'locked') =>
  `merchant:${merchantId}:${account}`;

/**
 * The platform's and channels' accounts are kept in shards (one row each per kind, channel, currency and
 * shard; a merchant always posts to the same shard), so merchants posting at once do not queue on one hot
 * row. Shard 0 has no suffix ("fee_revenue:CNY"), the others "#n" ("fee_revenue:CNY#5"); every report sums
 * the shards of an account.
 */
export const PLATFORM_SHARDS = 16;
const platformShardSuffix = (merchantId: number) => {
  const shard = merchantId % PLATFORM_SHARDS;
  return shard === 0 ? '' : `#${shard}`;
};

/** Test mode's platform and channel accounts are apart from live ones (DESIGN 12): "test:fee_revenue:CNY". */
const platformModePrefix = sql`(case when m.mode = 'test' then 'test:' else '' end)`;

/** A line on one of the merchant's two accounts. */
export type MerchantLeg = { account: 'available' | 'locked'; amountMinor: bigint };
/** A line on a platform or channel account, in the merchant's currency (created on first use). */
export type PlatformLeg = { kind: PlatformAccountKind; channel?: string | null; amountMinor: bigint };

/**
 * One journal entry as the ledger service builds it. The merchant legs come first, available before
 * locked (every writer takes the two rows in that order, so two writers never wait on each other in a
 * circle); the first leg is the guarded one: a debit only if the account stays >= 0, and only if no entry
 * has this key yet.
 */
export type EntryDraft = {
  merchantId: number;
  type: JournalEntryType;
  refType: string;
  refId: string;
  refNo: string | null;
  note: string | null;
  idempotencyKey: string;
  merchantLegs: [MerchantLeg] | [MerchantLeg, MerchantLeg];
  platformLegs: PlatformLeg[];
  /** The fund flow row of the available leg (DESIGN 3: one per posting on merchant_available). */
  flowType?: FundFlowType;
  /** The hold the fund flow belongs to (a release). */
  holdId?: number | null;
  /** Opens a hold of this type for the locked leg's amount (payout, withdrawal, freeze). */
  openHold?: HoldType;
  at?: Date;
};

/** What a conditional write did: nothing (not applied), or changed the balances and maybe wrote the rows. */
export type Applied<T> =
  { applied: false } | { applied: true; availableAfterMinor: bigint | null; written: T | undefined };

export type WrittenEntry = { entryId: number; flowId: number | null; holdId: number | null; createdAt: Date };

type WrittenRow = {
  available: unknown;
  entry_id: unknown;
  flow_id: unknown;
  hold_id: unknown;
  created_ms: unknown;
};

// The hourly rollup of money in, money out and entry count, written in the same statement as the entry.
const rollupText = (cte: string) => `
  insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
  select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
         greatest(amount_minor, 0), greatest(-amount_minor, 0), 1
  from ${cte}
  on conflict (merchant_id, type, hour) do update set
    in_minor = fund_flow_hourly.in_minor + excluded.in_minor,
    out_minor = fund_flow_hourly.out_minor + excluded.out_minor,
    entries = fund_flow_hourly.entries + excluded.entries`;
const rollupFrom = (cte: string) => sql.raw(rollupText(cte));

/** rollupText for many entries at once: one upsert row per merchant, type and hour (a row is never hit twice). */
const groupedRollupText = (cte: string) => `
  insert into fund_flow_hourly (merchant_id, type, hour, in_minor, out_minor, entries)
  select merchant_id, type, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
         sum(greatest(amount_minor, 0)), sum(greatest(-amount_minor, 0)), count(*)
  from ${cte}
  group by 1, 2, 3
  on conflict (merchant_id, type, hour) do update set
    in_minor = fund_flow_hourly.in_minor + excluded.in_minor,
    out_minor = fund_flow_hourly.out_minor + excluded.out_minor,
    entries = fund_flow_hourly.entries + excluded.entries`;

function legUpdate(draft: EntryDraft, index: 0 | 1): SQL {
  const leg = draft.merchantLegs[index]!;
  const code = merchantAccountCode(draft.merchantId, leg.account);
  const guard =
    index === 0
      ? sql`${leg.amountMinor < 0n ? sql`and balance_minor + ${leg.amountMinor} >= 0` : sql``}
            and not exists (select 1 from journal_entries where idempotency_key = ${draft.idempotencyKey})`
      : sql`and exists (select 1 from leg0)`;
  return sql`update ledger_accounts set balance_minor = balance_minor + ${leg.amountMinor}, updated_at = now()
             where code = ${code} ${guard}
             returning id, balance_minor`;
}

/** (kind, channel, amount) rows of the platform legs, for the upsert and for the postings. */
const platformValues = (legs: PlatformLeg[]) =>
  sql.join(
    legs.map((l) => sql`(${l.kind}::text, ${l.channel ?? null}::text, ${l.amountMinor}::bigint)`),
    sql`, `,
  );

/** The single statement that writes a journal entry, its postings, balances, hold, fund flow and rollup. */
function entryStatement(draft: EntryDraft): SQL {
  const legs = draft.merchantLegs;
  const availableCte =
    legs[0].account === 'available' ? 'leg0' : legs[1]?.account === 'available' ? 'leg1' : null;
  const lockedLeg = legs.find((l) => l.account === 'locked');
  const ctes: SQL[] = [sql`leg0 as (${legUpdate(draft, 0)})`];
  if (legs[1]) ctes.push(sql`leg1 as (${legUpdate(draft, 1)})`);
  ctes.push(sql`entry as (
    insert into journal_entries (type, merchant_id, ref_type, ref_id, ref_no, note, idempotency_key, created_at)
    select ${draft.type}::text, ${draft.merchantId}::bigint, ${draft.refType}::text, ${draft.refId}::text,
           ${draft.refNo}::text, ${draft.note}::text, ${draft.idempotencyKey}::text, ${timeOrNow(draft.at)}
    from leg0 ${legs[1] ? sql`, leg1` : sql``}
    on conflict (idempotency_key) do nothing
    returning id, created_at)`);
  const lines: SQL[] = [sql`select entry.id, leg0.id, ${legs[0].amountMinor}::bigint from entry, leg0`];
  if (legs[1]) lines.push(sql`select entry.id, leg1.id, ${legs[1].amountMinor}::bigint from entry, leg1`);
  if (draft.platformLegs.length) {
    const values = platformValues(draft.platformLegs);
    ctes.push(sql`platform as (
      insert into ledger_accounts (code, kind, channel_code, currency, mode, balance_minor)
      select ${platformModePrefix} || v.kind || ':' || coalesce(v.channel || ':', '') || m.currency
               || ${platformShardSuffix(draft.merchantId)},
             v.kind, v.channel, m.currency, m.mode, v.amount
      from entry, merchants m, (values ${values}) as v(kind, channel, amount)
      where m.id = ${draft.merchantId}
      on conflict (code) do update
        set balance_minor = ledger_accounts.balance_minor + excluded.balance_minor, updated_at = now()
      returning id, kind, channel_code)`);
    lines.push(sql`select entry.id, p.id, v.amount from entry, platform p
      join (values ${values}) as v(kind, channel, amount)
        on v.kind = p.kind and v.channel is not distinct from p.channel_code`);
  }
  ctes.push(sql`lines as (
    insert into postings (entry_id, account_id, amount_minor) ${sql.join(lines, sql` union all `)}
    returning id)`);
  if (draft.openHold) {
    if (!lockedLeg) throw new Error('A hold needs a locked leg.');
    ctes.push(sql`hold as (
      insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note, idempotency_key,
                         created_at)
      select ${draft.merchantId}::bigint, ${lockedLeg.amountMinor}::bigint, ${draft.openHold}::text, 'open',
             ${draft.refType}::text, ${draft.refId}::text, ${draft.refNo}::text, ${draft.note}::text,
             ${draft.idempotencyKey}::text, entry.created_at
      from entry
      returning id)`);
  }
  if (draft.flowType && availableCte) {
    const available = legs.find((l) => l.account === 'available')!;
    const holdId = draft.openHold ? sql`hold.id` : sql`${draft.holdId ?? null}::bigint`;
    ctes.push(sql`flow as (
      insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                              hold_id, entry_id, note, created_at)
      select ${draft.merchantId}::bigint, ${draft.flowType}::text, ${available.amountMinor}::bigint,
             ${sql.raw(availableCte)}.balance_minor, ${draft.refType}::text, ${draft.refId}::text,
             ${draft.refNo}::text, ${holdId}, entry.id, ${draft.note}::text, entry.created_at
      from entry, ${sql.raw(availableCte)} ${draft.openHold ? sql`, hold` : sql``}
      returning *)`);
    ctes.push(sql`rollup as (${rollupFrom('flow')})`);
  }
  const flow = draft.flowType && availableCte;
  return sql`with ${sql.join(ctes, sql`, `)}
    select ${availableCte ? sql`${sql.raw(availableCte)}.balance_minor::text` : sql`null::text`} as available,
           entry.id as entry_id, ${flow ? sql`flow.id` : sql`null::bigint`} as flow_id,
           ${draft.openHold ? sql`hold.id` : sql`null::bigint`} as hold_id,
           (extract(epoch from entry.created_at) * 1000)::int8 as created_ms
    from leg0 ${legs[1] ? sql`join leg1 on true` : sql``}
    left join entry on true
    ${flow ? sql`left join flow on true` : sql``}
    ${draft.openHold ? sql`left join hold on true` : sql``}`;
}

/** How many parameters holdInStatementText's CTEs take (holdInStatementParams). */
export const HOLD_IN_STATEMENT_PARAMS = 6;

/**
 * A hold as CTEs of another module's statement, for a write that is one statement (one round trip, one
 * commit: a gateway payout). `legs` moves the amount from the merchant's available to its locked account
 * only when the CTE `gate` has a row and available covers it (hold_available, hold_locked: empty
 * otherwise). `records` writes the journal entry, its two postings, the open hold, the fund flow and its
 * rollup for the one row of the CTE `cause` (ref_id, ref_no, note, idempotency_key), which the caller
 * makes from a row written only `from hold_locked`. Parameters are numbered from `from` + 1, in the order
 * of holdInStatementParams. The caller's statement must not name its CTEs hold_*.
 */
export function holdInStatementText(from: number, gate: string, cause: string) {
  const p = (i: number) => `$${from + i}`;
  const [merchant, availableCode, lockedCode, amount, type, refType] = [1, 2, 3, 4, 5, 6].map(p);
  const legs = `hold_available as (
      update ledger_accounts set balance_minor = balance_minor - ${amount}::bigint, updated_at = now()
       where code = ${availableCode} and balance_minor - ${amount}::bigint >= 0 and exists (select 1 from ${gate})
         and exists (select 1 from ledger_accounts l where l.code = ${lockedCode})
       returning id, balance_minor
    ), hold_locked as (
      update ledger_accounts set balance_minor = balance_minor + ${amount}::bigint, updated_at = now()
       where code = ${lockedCode} and exists (select 1 from hold_available)
       returning id, balance_minor
    )`;
  const records = `hold_entry as (
      insert into journal_entries (type, merchant_id, ref_type, ref_id, ref_no, note, idempotency_key, created_at)
      select ${type}::text, ${merchant}::bigint, ${refType}::text, c.ref_id, c.ref_no, c.note, c.idempotency_key,
             date_trunc('milliseconds', clock_timestamp())
        from ${cause} c
      returning id, created_at
    ), hold_lines as (
      insert into postings (entry_id, account_id, amount_minor)
      select e.id, a.id, -${amount}::bigint from hold_entry e, hold_available a
      union all
      select e.id, l.id, ${amount}::bigint from hold_entry e, hold_locked l
      returning id
    ), hold_row as (
      insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note, idempotency_key,
                         created_at)
      select ${merchant}::bigint, ${amount}::bigint, ${type}::text, 'open', ${refType}::text, c.ref_id, c.ref_no,
             c.note, c.idempotency_key, e.created_at
        from ${cause} c, hold_entry e
      returning id
    ), hold_flow as (
      insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                              hold_id, entry_id, note, created_at)
      select ${merchant}::bigint, ${type}::text, -${amount}::bigint, a.balance_minor, ${refType}::text, c.ref_id,
             c.ref_no, h.id, e.id, c.note, e.created_at
        from ${cause} c, hold_entry e, hold_available a, hold_row h
      returning *
    ), hold_rollup as (${rollupText('hold_flow')})`;
  return { legs, records };
}

/** How many parameters holdManyInStatementText's CTEs take (the hold's type and ref_type). */
export const HOLD_MANY_IN_STATEMENT_PARAMS = 2;

/** The columns each row of a batch gives holdManyInStatementText (holdManyRow). */
export const HOLD_MANY_COLUMNS = 'hold_amount bigint, hold_available_code text, hold_locked_code text';

/** A row's hold for holdManyInStatementText: amount (> 0) and the merchant's two accounts. */
export const holdManyRow = (merchantId: number, amountMinor: bigint) => ({
  hold_amount: String(amountMinor),
  hold_available_code: merchantAccountCode(merchantId, 'available'),
  hold_locked_code: merchantAccountCode(merchantId, 'locked'),
});

/**
 * holdInStatementText for many holds of one type in one statement (a batch of gateway payouts). `gate`
 * is a CTE of the rows to hold, each with `i` (its order), `merchant_id` and HOLD_MANY_COLUMNS: each
 * merchant's available account gives the sum of its rows at once (hold_available, hold_locked: one row
 * per merchant covered). The available rows are locked first, in the order of their codes (hold_order),
 * so two batches never wait on each other in a circle; then each locked row of a merchant whose available
 * row the batch holds, as every other writer takes them (available, then locked). `cause` is the
 * caller's CTE of the rows written `from hold_locked`, each with `i`, `merchant_id`, `amount`, `ref_id`,
 * `ref_no`, `note` and `idempotency_key`: each gets its own journal entry, postings, open hold and fund
 * flow, in the order of `i` (their available-after values run down in that order, as if each had been
 * written alone). `covered` is an answer column for the caller's statement that fails it (division by
 * zero, 22012) when a merchant's available did not cover its rows: nothing of it may commit, so that each
 * row can be tried alone. Parameters $from+1 (type) and $from+2 (ref_type).
 */
export function holdManyInStatementText(from: number, gate: string, cause: string) {
  const [type, refType] = [`$${from + 1}`, `$${from + 2}`];
  const legs = `hold_want as (
      select g.merchant_id, g.hold_available_code, g.hold_locked_code, sum(g.hold_amount)::bigint as total
        from ${gate} g
       group by g.merchant_id, g.hold_available_code, g.hold_locked_code
    ), hold_order as materialized (
      select a.id from ledger_accounts a join hold_want w on a.code = w.hold_available_code
       order by a.code
         for no key update of a
    ), hold_available as (
      update ledger_accounts a set balance_minor = a.balance_minor - w.total, updated_at = now()
        from hold_want w
       where a.code = w.hold_available_code and a.balance_minor - w.total >= 0
         and (select count(*) from hold_order) >= 0
         and exists (select 1 from ledger_accounts l where l.code = w.hold_locked_code)
       returning a.id, w.merchant_id, a.balance_minor
    ), hold_locked as (
      update ledger_accounts a set balance_minor = a.balance_minor + w.total, updated_at = now()
        from hold_want w join hold_available h on h.merchant_id = w.merchant_id
       where a.code = w.hold_locked_code
       returning a.id, w.merchant_id, a.balance_minor
    )`;
  const records = `hold_entry as (
      insert into journal_entries (type, merchant_id, ref_type, ref_id, ref_no, note, idempotency_key, created_at)
      select ${type}::text, c.merchant_id, ${refType}::text, c.ref_id, c.ref_no, c.note, c.idempotency_key,
             date_trunc('milliseconds', clock_timestamp())
        from ${cause} c
       order by c.i
      returning id, idempotency_key, created_at
    ), hold_lines as (
      insert into postings (entry_id, account_id, amount_minor)
      select e.id, a.id, -c.amount
        from ${cause} c join hold_entry e on e.idempotency_key = c.idempotency_key
        join hold_available a on a.merchant_id = c.merchant_id
      union all
      select e.id, l.id, c.amount
        from ${cause} c join hold_entry e on e.idempotency_key = c.idempotency_key
        join hold_locked l on l.merchant_id = c.merchant_id
      returning id
    ), hold_row as (
      insert into holds (merchant_id, amount_minor, type, status, ref_type, ref_id, ref_no, note, idempotency_key,
                         created_at)
      select c.merchant_id, c.amount, ${type}::text, 'open', ${refType}::text, c.ref_id, c.ref_no, c.note,
             c.idempotency_key, e.created_at
        from ${cause} c join hold_entry e on e.idempotency_key = c.idempotency_key
       order by c.i
      returning id, idempotency_key
    ), hold_flow as (
      insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                              hold_id, entry_id, note, created_at)
      select c.merchant_id, ${type}::text, -c.amount,
             a.balance_minor + coalesce(sum(c.amount) over (partition by c.merchant_id order by c.i
                                          rows between 1 following and unbounded following), 0),
             ${refType}::text, c.ref_id, c.ref_no, h.id, e.id, c.note, e.created_at
        from ${cause} c join hold_entry e on e.idempotency_key = c.idempotency_key
        join hold_available a on a.merchant_id = c.merchant_id
        join hold_row h on h.idempotency_key = c.idempotency_key
       order by c.i
      returning *
    ), hold_rollup as (${groupedRollupText('hold_flow')})`;
  const shortfall = `exists (select 1 from hold_want w
                       where not exists (select 1 from hold_available h where h.merchant_id = w.merchant_id))`;
  return { legs, records, covered: `1 / (case when ${shortfall} then 0 else 1 end) as "covered"` };
}

/** holdInStatementText's parameters: a hold of `amountMinor` (> 0) of this type on the merchant. */
export const holdInStatementParams = (hold: {
  merchantId: number;
  type: HoldType;
  refType: string;
  amountMinor: bigint;
}): unknown[] => [
  hold.merchantId,
  merchantAccountCode(hold.merchantId, 'available'),
  merchantAccountCode(hold.merchantId, 'locked'),
  String(hold.amountMinor),
  hold.type,
  hold.refType,
];

export const ledgerRepository = {
  /**
   * One statement: the guarded merchant leg (and the other), only if no entry has this key yet, then the
   * journal entry, its postings, the platform accounts, the hold, the fund flow and its rollup. Not applied:
   * no account, not enough funds, or a repeat. Applied without an entry: a concurrent caller committed the
   * same key first (undo the legs, then replay theirs).
   */
  writeEntry: async (tx: Tx, draft: EntryDraft): Promise<Applied<WrittenEntry>> => {
    const [row] = await queryRows<WrittenRow>(tx, entryStatement(draft));
    if (!row) return { applied: false };
    const availableAfterMinor = row.available === null ? null : BigInt(String(row.available));
    if (row.entry_id === null || row.entry_id === undefined)
      return { applied: true, availableAfterMinor, written: undefined };
    return {
      applied: true,
      availableAfterMinor,
      written: {
        entryId: toNumber(row.entry_id),
        flowId: row.flow_id === null ? null : toNumber(row.flow_id),
        holdId: row.hold_id === null ? null : toNumber(row.hold_id),
        createdAt: new Date(toNumber(row.created_ms)),
      },
    };
  },

  /** Undoes the merchant legs of an applied writeEntry inside the same transaction (it holds their locks). */
  undoLegs: async (tx: Tx, draft: EntryDraft) => {
    for (const leg of draft.merchantLegs) {
      await tx
        .update(ledgerAccounts)
        .set({ balanceMinor: sql`${ledgerAccounts.balanceMinor} - ${leg.amountMinor}` })
        .where(eq(ledgerAccounts.code, merchantAccountCode(draft.merchantId, leg.account)));
    }
  },

  /** The merchant's available and locked accounts at zero, so conditional updates have rows to lock. */
  ensureMerchantAccounts: async (tx: Tx, merchantId: number) => {
    await tx.execute(sql`
      insert into ledger_accounts (code, kind, merchant_id, currency, mode)
      select ${merchantAccountCode(merchantId, 'available')}, 'merchant_available', id, currency, mode
      from merchants where id = ${merchantId}
      union all
      select ${merchantAccountCode(merchantId, 'locked')}, 'merchant_locked', id, currency, mode
      from merchants where id = ${merchantId}
      -- Any unique index (code, or merchant and kind) may be the one a concurrent first credit meets.
      on conflict do nothing`);
  },

  /** open -> captured | released, only from open; undefined when the hold is not open (or not there). */
  closeHold: async (
    tx: Tx,
    merchantId: number,
    holdId: number,
    status: 'captured' | 'released',
    closeKey: string,
  ): Promise<HoldRow | undefined> => {
    const [row] = await tx
      .update(holds)
      .set({ status, closeKey, closedAt: NOW_MS })
      .where(and(eq(holds.id, holdId), eq(holds.merchantId, merchantId), eq(holds.status, 'open')))
      .returning();
    return row;
  },

  /** The fund flow row of the entry with this key, if that entry has one. */
  findFlowByKey: async (db: DbOrTx, idempotencyKey: string): Promise<FundFlowRow | undefined> => {
    const [row] = await db
      .select({ flow: fundFlows })
      .from(journalEntries)
      .innerJoin(fundFlows, eq(fundFlows.entryId, journalEntries.id))
      .where(eq(journalEntries.idempotencyKey, idempotencyKey));
    return row?.flow;
  },

  findEntryByKey: async (db: DbOrTx, idempotencyKey: string) => {
    const [row] = await db
      .select()
      .from(journalEntries)
      .where(eq(journalEntries.idempotencyKey, idempotencyKey));
    return row;
  },

  findHoldByKey: async (db: DbOrTx, idempotencyKey: string): Promise<HoldRow | undefined> => {
    const [row] = await db.select().from(holds).where(eq(holds.idempotencyKey, idempotencyKey));
    return row;
  },

  findHold: async (db: DbOrTx, merchantId: number, holdId: number): Promise<HoldRow | undefined> => {
    const [row] = await db
      .select()
      .from(holds)
      .where(and(eq(holds.id, holdId), eq(holds.merchantId, merchantId)));
    return row;
  },

  /** available and locked (absent accounts are zero). */
  findBalance: async (db: DbOrTx, merchantId: number) => {
    const rows = await db
      .select({ kind: ledgerAccounts.kind, balanceMinor: ledgerAccounts.balanceMinor })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.merchantId, merchantId));
    const of = (kind: string) => rows.find((r) => r.kind === kind)?.balanceMinor ?? 0n;
    return { availableMinor: of('merchant_available'), lockedMinor: of('merchant_locked') };
  },

  /**
   * Every entry of a test row and what it left (DESIGN 12's "delete all test data"): the accounts it posted
   * to give back its postings (its own two come to zero; test mode's platform and channel accounts keep
   * balancing), then its postings, entries, holds, fund flows and their rollups go. Its accounts are locked
   * first, so a concurrent write of that row waits and finds the books as they are after. Answers the
   * number of entries erased. A live row is refused: live money is never erased.
   */
  eraseTestHistory: async (tx: Tx, merchantId: number): Promise<number> => {
    const [row] = await queryRows<{ mode: string }>(
      tx,
      sql`select mode from merchants where id = ${merchantId}`,
    );
    if (row?.mode !== 'test') throw new Error(`Merchant ${merchantId} is not a test row: its ledger stays.`);
    await tx.execute(
      sql`select id from ledger_accounts where merchant_id = ${merchantId} order by id for update`,
    );
    await tx.execute(sql`
      update ledger_accounts a set balance_minor = a.balance_minor - s.total, updated_at = now()
      from (select p.account_id, sum(p.amount_minor) as total
            from postings p join journal_entries j on j.id = p.entry_id
            where j.merchant_id = ${merchantId} group by p.account_id) s
      where a.id = s.account_id`);
    await tx.execute(sql`delete from fund_flows where merchant_id = ${merchantId}`);
    await tx.execute(sql`delete from holds where merchant_id = ${merchantId}`);
    await tx.execute(sql`delete from postings p using journal_entries j
                         where j.id = p.entry_id and j.merchant_id = ${merchantId}`);
    const erased = await queryRows<{ id: unknown }>(
      tx,
      sql`delete from journal_entries where merchant_id = ${merchantId} returning id`,
    );
    for (const rollup of ['fund_flow_hourly', 'fund_flow_daily', 'fund_flow_minutely']) {
      await tx.execute(sql`delete from ${sql.identifier(rollup)} where merchant_id = ${merchantId}`);
    }
    return erased.length;
  },

  /** The time of the merchant's latest entry (for back-dated history, which must stay in order). */
  latestEntryTime: async (db: DbOrTx, merchantId: number): Promise<Date | undefined> => {
    const [row] = await db
      .select({ createdAt: fundFlows.createdAt })
      .from(fundFlows)
      .where(eq(fundFlows.merchantId, merchantId))
      .orderBy(sql`${fundFlows.createdAt} desc nulls last`, sql`${fundFlows.id} desc nulls last`)
      .limit(1);
    return row?.createdAt;
  },
};
