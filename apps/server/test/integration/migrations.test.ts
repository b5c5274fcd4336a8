import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../helpers/test-app.ts';

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.drop();
});

/** Every column, constraint, index and trigger of the public schema, as text. */
async function schemaOf(database: TestDatabase) {
  return queryRows<{ item: string }>(
    database.db,
    sql`select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
               coalesce(column_default, '') as item
        from information_schema.columns where table_schema = 'public'
        union all
        select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = 'public'::regnamespace
        union all
        select indexdef from pg_indexes where schemaname = 'public'
        union all
        select tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal
        order by 1`,
  );
}

it(`migrations apply to an empty database (${testDatabaseKind()}) and a second run is a no-op`, async () => {
  const database = await createTestDatabase();
  opened.push(database);
  expect(database.kind).toBe(testDatabaseKind());
  const tables = await queryRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  expect(tables.map((t) => t.table_name)).toEqual([
    'access_keys',
    'callback_attempts',
    'callback_events',
    'channel_attempts',
    'channels',
    'collections',
    'daily_reports',
    'export_tasks',
    'fund_flow_daily',
    'fund_flow_hourly',
    'fund_flow_minutely',
    'fund_flows',
    'gateway_nonces',
    'holds',
    'idempotency_keys',
    'journal_entries',
    'ledger_accounts',
    'limit_usage',
    'list_daily',
    'list_hourly',
    'merchant_blocks',
    'merchant_limits',
    'merchants',
    'notifications',
    'operator_actions',
    'operator_tokens',
    'order_daily',
    'order_hourly',
    'order_minutely',
    'payout_approval_settings',
    'payouts',
    'postings',
    'rate_limits',
    'razorpay_stand_in_links',
    'razorpay_stand_in_refunds',
    'received_payments',
    'recharges',
    'reconciliation_days',
    'reconciliation_resolutions',
    'refunds',
    'rollup_horizons',
    'security_events',
    'sessions',
    'settlements',
    'statement_imports',
    'test_data_deletions',
    'user_invitations',
    'users',
    'withdrawals',
  ]);
  const before = await schemaOf(database);
  await database.migrate();
  // A second run applies nothing: the same columns, constraints, indexes and triggers.
  expect(await schemaOf(database)).toEqual(before);
  const [{ count }] = await queryRows<{ count: number }>(
    database.db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  expect(Number(count)).toBeGreaterThan(0);
});
