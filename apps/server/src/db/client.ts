import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { fromPglite, type Db as IDatabase } from 'pg-boss';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A repository method takes whichever it runs in: the database, or the caller's transaction. */
export type DbOrTx = Db | Tx;

/**
 * A statement's name derived from its text: on PostgreSQL a named statement is parsed once per connection
 * and, after a few runs, planned once too (the console's hot reads spend more time planning than running).
 * The same text always gets the same name, so names never clash.
 */
export const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `pd_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // The texts are the code's own statements (a few hundred shapes), but a bound keeps a mistake finite.
    if (statementNames.size >= 5_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
};
const statementNames = new Map<string, string>();

type SessionOf = {
  session: {
    dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(values?: Record<string, unknown>): Promise<unknown> };
  };
};

/**
 * Raw SQL rows, the same on both drivers, run as a named prepared statement. Note: node-postgres returns
 * int8/numeric as strings and PGlite may return numbers or bigints: convert with Number()/BigInt() at the
 * call site.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const { session } = db as unknown as SessionOf;
  const built = session.dialect.sqlToQuery(query);
  const result = (await session
    .prepareQuery(built, undefined, statementName(built.sql), false)
    .execute()) as {
    rows: T[];
  };
  return result.rows;
}

/** A statement's text and its parameters (placeholders among them, filled per run by queryBuilt). */
export type BuiltQuery = { sql: string; params: unknown[] };

/** Builds a drizzle statement into text: to build it once and run it many times with queryBuilt. */
export const sqlOf = (db: DbOrTx, query: SQL): BuiltQuery =>
  (db as unknown as SessionOf).session.dialect.sqlToQuery(query);

/** Rows of a statement built once (sqlOf), its placeholders filled with `values`, as a named statement. */
export async function queryBuilt<T>(db: DbOrTx, built: BuiltQuery, values: Record<string, unknown>) {
  const { session } = db as unknown as SessionOf;
  const result = (await session
    .prepareQuery(built, undefined, statementName(built.sql), false)
    .execute(values)) as { rows: T[] };
  return result.rows;
}

/**
 * Rows of a statement written once as text with $1..$n placeholders, run as a named prepared statement on
 * either driver. For the hottest paths (every gateway call): building a drizzle `sql` template costs more
 * Node time per call than PostgreSQL spends running the statement. `params` are driver values (strings,
 * numbers, booleans, null); cast them in the text (`$3::timestamptz`).
 */
export async function queryText<T>(db: DbOrTx, text: string, params: unknown[]): Promise<T[]> {
  const { session } = db as unknown as SessionOf;
  const result = (await session
    .prepareQuery({ sql: text, params }, undefined, statementName(text), false)
    .execute()) as { rows: T[] };
  return result.rows;
}

/**
 * `COPY (query) TO STDOUT` as a byte stream, on PostgreSQL; undefined on PGlite (read in batches there).
 * COPY takes no parameters, so the query's values are written into its text as literals (drizzle quotes
 * strings; standard_conforming_strings is on, PostgreSQL's default). The connection is held until the
 * stream ends or fails; the statement may run for `timeoutMs` (an export of millions of rows).
 */
export function copyOut(db: Db, query: SQL, options: { format: 'csv' | 'text'; timeoutMs: number }) {
  const pool = (db as unknown as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return undefined;
  const { session } = db as unknown as SessionOf;
  const text = session.dialect.sqlToQuery(query.inlineParams()).sql;
  return (async (): Promise<Readable> => {
    const client = await pool.connect();
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      // A connection whose COPY failed half-way is closed rather than reused.
      client.release(error);
    };
    try {
      await client.query(`set statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      const stream = client.query(copyTo(`copy (${text}) to stdout with (format ${options.format})`));
      stream.once('end', () => {
        client
          .query('reset statement_timeout')
          .then(() => release())
          .catch((error: Error) => release(error));
      });
      stream.once('error', (error) => release(error));
      stream.once('close', () => {
        if (!stream.readableEnded) release(new Error('COPY stopped before its end'));
      });
      return stream;
    } catch (error) {
      release(error as Error);
      throw error;
    }
  })();
}

/**
 * `write` kept per shape: a statement's text (or undefined) is written on its shape's first call only and
 * answered again for every later call of that shape (`shapeOf`: what the text depends on).
 */
export function textPerShape<A extends unknown[], T>(
  write: (...args: A) => T,
  shapeOf: (...args: NoInfer<A>) => string,
): (...args: A) => T {
  const texts = new Map<string, T>();
  return (...args) => {
    const shape = shapeOf(...args);
    if (texts.has(shape)) return texts.get(shape) as T;
    const text = write(...args);
    texts.set(shape, text);
    return text;
  };
}

const preparedByDb = new WeakMap<object, Map<string, unknown>>();

/**
 * A prepared drizzle query with placeholders, built once per database (building a select of many columns
 * costs more than running it) and named, so PostgreSQL parses and plans it once per connection. `key`
 * names the query's shape; `build` must make the same query for the same key.
 */
export function preparedOnce<P>(db: DbOrTx, key: string, build: (db: DbOrTx) => P): P {
  let cache = preparedByDb.get(db);
  if (!cache) preparedByDb.set(db, (cache = new Map()));
  let query = cache.get(key) as P | undefined;
  if (!query) cache.set(key, (query = build(db)));
  return query;
}

/** How pg-boss reaches the same database: PGlite's one connection, or a small pool of its own. */
export type JobConnection = { db: IDatabase; backend: 'pglite' } | { connectionString: string; max: number };

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  jobConnection: JobConnection;
  /** One round trip; used by /healthz. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The list sums' own connections on PostgreSQL (rollupSums runs there), on which PostgreSQL runs every
 * prepared statement with its plan made without values (plan_cache_mode = force_generic_plan). A sums
 * statement reads rollups by index and at most the rows at an hour's edges, whatever its values; but where
 * its plan for a run's values is costed below that one (a range of rows, without values, is costed at 0.5%
 * of the table), PostgreSQL planned every run afresh, which took longer than running it (bench lists at
 * 10 M orders: a range cut to the minute 4.9-5.3x the bare page, 3.0-4.5x on these connections). Nor
 * does it start parallel workers (max_parallel_workers_per_gather = 0): the plan without values of a range
 * of fund_flow_minutely, costed at 0.5% of its rows, gathered two index scans from workers, and starting
 * them took 5 ms of the statement's 5.0 (bench lists at 10 M entries; 0.2 ms without). Half the main pool's
 * size: a list reads its page beside its sums. list-plans.test.ts checks those plans.
 */
const keptPlans = new WeakMap<DbOrTx, Db>();

/** The settings of those connections (pg's `options`). */
export const KEPT_PLANS_OPTIONS =
  '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0';

/** The database's sums connections (keptPlans), or `db` itself: PGlite's one connection, a transaction. */
export const withKeptPlans = (db: DbOrTx): DbOrTx => keptPlans.get(db) ?? db;

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');
const MIGRATION_LOCK = 7_246_001; // any constant: serialises migrations across processes

export type DatabaseOptions = {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite directory; undefined with no url means in memory (tests). */
  pgliteDir?: string;
  poolSize?: number;
  acquireTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Where the migrations are read from (tests migrate to an earlier point with a shorter journal). */
  migrationsFolder?: string;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.pgliteDir, options.migrationsFolder ?? migrationsFolder);
}

async function openPglite(dir: string | undefined, migrationsFolder: string): Promise<Database> {
  if (dir) mkdirSync(path.dirname(dir), { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    jobConnection: { db: fromPglite(client), backend: 'pglite' },
    ping: async () => {
      await client.query('select 1');
    },
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  const poolOf = (max: number, settings?: string) => {
    const made = new pg.Pool({
      connectionString: url,
      max,
      // A request that cannot get a connection fails fast (503) instead of hanging.
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 5000,
      statement_timeout: options.statementTimeoutMs ?? 15000,
      idleTimeoutMillis: 30000,
      options: settings,
    });
    made.on('error', () => {
      /* an idle client died (server restart); the pool replaces it */
    });
    return made;
  };
  const poolSize = options.poolSize ?? 20;
  const pool = poolOf(poolSize);
  const sumsPool = poolOf(Math.ceil(poolSize / 2), KEPT_PLANS_OPTIONS);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  keptPlans.set(db, drizzlePg(sumsPool, { schema }) as unknown as Db);
  return {
    db,
    kind: 'postgres',
    jobConnection: { connectionString: url, max: 4 },
    ping: async () => {
      await pool.query('select 1');
    },
    migrate: async () => {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: folder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        lock.release();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), sumsPool.end()]);
    },
  };
}
