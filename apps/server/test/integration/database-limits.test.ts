import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase, testConfig, testDatabaseKind } from '../helpers/test-app.ts';

// Pool limits exist only with node-postgres; this file runs in the integration:postgres project.
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.runIf(testDatabaseKind() === 'postgres')('PostgreSQL pool limits', () => {
  it('answers 503 quickly when no connection can be had, and applies statement_timeout', async () => {
    const base: TestDatabase = await createTestDatabase();
    cleanups.push(() => base.drop());
    const database = await openDatabase({
      url: base.url,
      poolSize: 1,
      acquireTimeoutMs: 300,
      statementTimeoutMs: 1500,
    });
    cleanups.push(() => database.close());
    const app = await buildApp({ config: testConfig(), database, logger: false });
    cleanups.push(() => app.close());

    const [{ statement_timeout }] = await queryRows<{ statement_timeout: string }>(
      database.db,
      sql`show statement_timeout`,
    );
    expect(statement_timeout).toBe('1500ms');

    // Hold the only connection; the statement timeout ends the sleep after 1.5 s.
    const holder = database.db.execute(sql`select pg_sleep(5)`).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const response = await app.inject({
      method: 'GET',
      url: '/api/merchant/user',
      headers: { cookie: 'paydesk_session=abc' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toMatch(/busy/i);
    expect(Date.now() - started).toBeLessThan(1400);
    const held = (await holder) as Error;
    expect(String((held.cause as Error | undefined)?.message ?? held)).toMatch(/statement timeout/i);
  });
});
