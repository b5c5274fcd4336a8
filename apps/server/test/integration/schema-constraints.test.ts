import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES, MERCHANT_STATUSES, ROLES } from '@paydesk/shared';
import {
  FUND_FLOW_TYPES,
  HOLD_TYPES,
  JOURNAL_ENTRY_TYPES,
  LEDGER_ACCOUNT_KINDS,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { SECURITY_EVENT_TYPES } from '@paydesk/shared/security/security.schemas.ts';
import { queryRows } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

// The database guards what it can cheaply: status and type columns accept exactly the shared enums' values,
// and every foreign key has an index that starts with its columns (or a delete or an FK check scans).

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const ENUM_CHECKS: Record<string, readonly string[]> = {
  merchants_currency_valid: Object.keys(CURRENCIES),
  merchants_status_valid: MERCHANT_STATUSES,
  users_roles_valid: ROLES,
  security_events_type_valid: SECURITY_EVENT_TYPES,
  ledger_accounts_kind_valid: LEDGER_ACCOUNT_KINDS,
  ledger_accounts_currency_valid: Object.keys(CURRENCIES),
  journal_entries_type_valid: JOURNAL_ENTRY_TYPES,
  fund_flows_type_valid: FUND_FLOW_TYPES,
  holds_type_valid: HOLD_TYPES,
  holds_status_valid: ['open', 'captured', 'released'],
};

describe('database constraints', () => {
  it.each(Object.entries(ENUM_CHECKS))('%s allows exactly the shared enum', async (name, values) => {
    const [row] = await queryRows<{ definition: string }>(
      database.db,
      sql`select pg_get_constraintdef(oid) as definition from pg_constraint where conname = ${name}`,
    );
    expect(row, `constraint ${name} exists`).toBeDefined();
    const quoted = [...row.definition.matchAll(/'([^']*)'/g)].map((m) => m[1]);
    expect(new Set(quoted)).toEqual(new Set(values));
  });

  it('refuses a value outside the enum (a merchant in a currency we do not have)', async () => {
    await expect(
      database.db.execute(sql`insert into merchants (no, name, currency) values ('MX1', 'X', 'EUR')`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(
        sql`insert into merchants (no, name, currency, status) values ('MX2', 'X', 'CNY', 'gone')`,
      ),
    ).rejects.toThrow();
  });

  it('every foreign key has an index that starts with its columns', async () => {
    const unindexed = await queryRows<{ constraint: string }>(
      database.db,
      sql`select c.conname as constraint
          from pg_constraint c
          where c.contype = 'f' and c.connamespace = 'public'::regnamespace
            and not exists (
              select 1 from pg_index i
              where i.indrelid = c.conrelid
                and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] = c.conkey
            )
          order by 1`,
    );
    expect(unindexed.map((r) => r.constraint)).toEqual([]);
    const [{ count }] = await queryRows<{ count: unknown }>(
      database.db,
      sql`select count(*)::int as count from pg_constraint
          where contype = 'f' and connamespace = 'public'::regnamespace`,
    );
    expect(Number(count)).toBeGreaterThanOrEqual(15);
  });
});
