import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { recordGatewayAnswers } from './openapi-conformance.ts';

/** Which database this run of the integration suite uses (vitest.config.ts sets it per project). */
export const testDatabaseKind = (): 'pglite' | 'postgres' =>
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

export const TEST_APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;

export function testConfig(overrides: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_KEY: TEST_APP_KEY,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'paydesk-test-')),
    WEB_DIST: path.join(os.tmpdir(), 'paydesk-no-console'),
    ...overrides,
  });
}

export type TestDatabase = Database & { url?: string; drop(): Promise<void> };

/**
 * A fresh, migrated database: in-memory PGlite, or a new database on the PostgreSQL of DATABASE_URL.
 * With `migrationsFolder`, its migrations are the ones applied (and `migrate` applies them again).
 */
export async function createTestDatabase(
  options: { migrationsFolder?: string; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const { migrationsFolder, migrate = true } = options;
  if (testDatabaseKind() === 'pglite') {
    const database = await openDatabase({ migrationsFolder });
    if (migrate) await database.migrate();
    return { ...database, drop: () => database.close() };
  }
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE=postgres needs DATABASE_URL');
  const name = `paydesk_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  // Tests fire hundreds of requests at once: on a busy machine a request may wait seconds for one of the
  // 40 connections, which must not turn into a 503 (database-limits.test.ts tests the short timeout).
  const database = await openDatabase({
    url: url.toString(),
    poolSize: 40,
    acquireTimeoutMs: 60_000,
    migrationsFolder,
  });
  if (migrate) await database.migrate();
  return {
    ...database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export type TestContext = {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
};

export async function createTestApp(
  overrides: NodeJS.ProcessEnv = {},
  options: Pick<AppDeps, 'now' | 'random' | 'deliverTimeoutMs' | 'storage' | 'exports' | 'gateway'> & {
    /** A database made beforehand (one migrated to an earlier version, say); a fresh one otherwise. */
    database?: TestDatabase;
  } = {},
): Promise<TestContext> {
  const config = testConfig(overrides);
  const { database: given, ...deps } = options;
  const database = given ?? (await createTestDatabase());
  const app = await buildApp({ config, database, logger: false, ...deps });
  await app.ready();
  // Every gateway answer of the file is checked against the OpenAPI document when it closes the app.
  const checkGatewayAnswers = recordGatewayAnswers(app);
  return {
    app,
    database,
    config,
    close: async () => {
      const mismatch = checkGatewayAnswers();
      await app.close();
      await database.drop();
      if (mismatch) throw mismatch;
    },
  };
}
