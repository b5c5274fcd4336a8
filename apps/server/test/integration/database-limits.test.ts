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

    // Hold the pool's only connection in an open transaction until the request has been answered.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      holding();
      await gate;
    });
    await held;
    const response = await app.inject({
      method: 'GET',
      url: '/api/merchant/user',
      headers: { cookie: 'paydesk_session=abc' },
    });
    // Refused once the acquire timeout (300 ms) passed, while the connection was still taken.
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toMatch(/busy/i);
    release();
    await holder;

    // A statement past statement_timeout is ended by the database.
    const error = (await database.db.execute(sql`select pg_sleep(5)`).catch((e: Error) => e)) as Error;
    expect(String((error.cause as Error | undefined)?.message ?? error)).toMatch(/statement timeout/i);
  });
});
