import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../helpers/test-app.ts';

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.drop();
});

it(`migrations apply to an empty database (${testDatabaseKind()}) and a second run is a no-op`, async () => {
  const database = await createTestDatabase();
  opened.push(database);
  expect(database.kind).toBe(testDatabaseKind());
  const tables = await queryRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  expect(tables.map((t) => t.table_name)).toEqual(
    expect.arrayContaining(['merchants', 'users', 'sessions', 'balances', 'holds', 'fund_flows']),
  );
  await database.migrate();
  const [{ count }] = await queryRows<{ count: number }>(
    database.db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  expect(Number(count)).toBeGreaterThan(0);
});
