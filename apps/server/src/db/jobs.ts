import { PgBoss, type SendOptions } from 'pg-boss';
import { type JobConnection, queryText, type Tx } from './client.ts';

// Background jobs on pg-boss, in the same database (DESIGN section 2). A job caused by a change is sent
// inside that change's transaction (inTransaction(tx)), so a rollback drops it; on PGlite, sending outside
// the transaction that holds the one connection would deadlock.

/**
 * pg-boss's statements run in the caller's transaction, as named prepared statements: pg-boss's own
 * fromDrizzle adapter rebuilds each statement as a drizzle template on every send and PostgreSQL plans
 * it again each time (a send is one statement with one JSON parameter, the same text per queue).
 */
const inTransaction = (tx: Tx): NonNullable<SendOptions['db']> => ({
  executeSql: async (text: string, values: unknown[] = []) => ({ rows: await queryText(tx, text, values) }),
});

export const QUEUES = [
  'collection.expire',
  'callback.deliver',
  'settlement.run',
  'sandbox.complete',
  'razorpay.collect',
  'razorpay.payout',
  'razorpay.query',
  'razorpay.refund',
  'housekeeping',
  'export.run',
  'reports.keep-days',
  'test-data.delete',
  'mail.send',
] as const;
export type QueueName = (typeof QUEUES)[number];

export type SendJobOptions = {
  /** Not before this time. */
  startAfter?: Date;
  /** One queued job per key (a second send while one waits is dropped). */
  singletonKey?: string;
};

/** A job's insert as pg-boss writes it: one statement whose $1 is `params[0]` (the jobs as JSON). */
export type JobInsert = { text: string; params: unknown[] };

/**
 * pg-boss's job insert as a CTE `job` of an order's one statement that inserts only with the order (the
 * CTE `row` its statement inserts): its one parameter, the jobs as JSON, is $`at`. Undefined when pg-boss
 * wrote another statement than the one insert this knows (the caller then sends the job itself).
 */
export function jobInsertCte(job: JobInsert, at: number, row: string): string | undefined {
  const json = '$1::text::json';
  const { text } = job;
  if (!/^\s*insert into/i.test(text) || text.split(json).length !== 2 || /\$[2-9]/.test(text))
    return undefined;
  return `job as (${text.replace(json, `(select $${at}::text from ${row})::json`)})`;
}

/**
 * pg-boss's job insert as a CTE `job` of a batch's one statement: the jobs of the input rows `g` that
 * `written` names (each row carries its call's job as `g.job`, batchJobOf), in the input's order `g.i`.
 */
const jobInsertManyCte = (job: JobInsert, written: string): string =>
  `job as (${job.text.replace(
    '$1::text::json',
    `(select coalesce(json_agg(g.job order by g.i), '[]'::json) from ${written})`,
  )})`;

/** A call's job as a batch's input row carries it (jobInsertManyCte): pg-boss's JSON is an array of it. */
const batchJobOf = (job: JobInsert | undefined): unknown =>
  job ? (JSON.parse(String(job.params[0])) as unknown[])[0] : null;

/**
 * A job insert inside an order's one statement, in one name, for the repositories that write one (a
 * gateway payout, a refund): one call's CTE, a batch's CTE and its input rows' job, and the warning, once
 * per statement shape, that pg-boss wrote an insert no CTE can hold (those calls take the long way).
 */
export const jobInStatement = {
  cte: jobInsertCte,
  batchCte: jobInsertManyCte,
  batchRow: batchJobOf,
  refused: (what: 'payout' | 'refund') =>
    process.emitWarning(
      `pg-boss wrote a job insert that cannot be a CTE of the one-statement ${what}; ${what}s take the long way.`,
    ),
};

/** What modules enqueue through: always inside the caller's transaction. */
export type JobQueue = {
  send(tx: Tx, queue: QueueName, data: object, options?: SendJobOptions): Promise<void>;
  /** Many jobs of one queue in one statement (a statement import's callbacks), in the caller's transaction. */
  sendMany(tx: Tx, queue: QueueName, data: object[]): Promise<void>;
  /**
   * The statement send() would run, not run: for a write that enqueues its job within its own one
   * statement (a CTE), so the job still commits or rolls back with the change that causes it.
   */
  insertOf(queue: QueueName, data: object, options?: SendJobOptions): Promise<JobInsert>;
  /**
   * The values of `field` in the data of the jobs of these queues still to run: waiting, between retries
   * or running (not those done, cancelled or failed for good). A sweep that sends a job again asks it
   * first, so an order whose job is alive does not get a second.
   */
  waitingFor(tx: Tx, queues: readonly QueueName[], field: string): Promise<Set<string>>;
};

export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

export type JobRunner = JobQueue & {
  /** Creates pg-boss's schema (first start) and the queues. */
  start(): Promise<void>;
  /** Takes jobs of these queues in this process until stop(). */
  work(
    handlers: Partial<Record<QueueName, JobHandler>>,
    options?: { pollingSeconds?: number },
  ): Promise<void>;
  /** A cron schedule (in UTC) sending an empty job to the queue. */
  schedule(queue: QueueName, cron: string): Promise<void>;
  /** Lets running jobs finish (up to timeoutMs), then stops. */
  stop(timeoutMs?: number): Promise<void>;
};

/**
 * Jobs of a queue one process runs at once. A callback waits on the merchant's server (up to 15 s): one at a
 * time, a slow receiver would hold every other merchant's callbacks back.
 */
const LOCAL_CONCURRENCY: Partial<Record<QueueName, number>> = {
  'callback.deliver': 8,
  'sandbox.complete': 4,
  // Exports stream and hold little memory each; the per-merchant limit is the service's (2 running).
  'export.run': 2,
};

/** Retries of a failed job step: every step is idempotent, so a retry is always safe. */
const SEND_DEFAULTS = { retryLimit: 5, retryDelay: 15, retryBackoff: true } as const;

/**
 * Queues that retry longer than the default. A mail server that is down for hours still gets the mail:
 * 30 s doubling to at most an hour, 16 tries (about 12 hours in all).
 */
export const RETRY_POLICIES: Partial<
  Record<QueueName, { retryLimit: number; retryDelay: number; retryBackoff: true; retryDelayMax?: number }>
> = {
  'mail.send': { retryLimit: 16, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 },
};

export function createJobRunner(connection: JobConnection): JobRunner {
  const boss = new PgBoss({
    ...connection,
    schema: 'pgboss',
    // Maintenance and monitoring every few minutes is plenty for our volumes.
    superviseIntervalSeconds: 60,
    maintenanceIntervalSeconds: 300,
  });
  let started = false;
  boss.on('error', (error: unknown) => {
    // A failed poll (database restarting) is retried by pg-boss; the logger of the process reports it.
    process.emitWarning(`pg-boss: ${(error as Error)?.message ?? String(error)}`);
  });

  const sendOptionsOf = (
    queue: QueueName,
    db: NonNullable<SendOptions['db']>,
    options: SendJobOptions,
  ): SendOptions => {
    const sendOptions: SendOptions = { ...SEND_DEFAULTS, ...RETRY_POLICIES[queue], db };
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    return sendOptions;
  };

  return {
    async send(tx, queue, data, options = {}) {
      await boss.send(queue, data, sendOptionsOf(queue, inTransaction(tx), options));
    },
    async sendMany(tx, queue, data) {
      if (data.length === 0) return;
      await boss.insert(
        queue,
        data.map((item) => ({ data: item, ...SEND_DEFAULTS, ...RETRY_POLICIES[queue] })),
        { db: inTransaction(tx) },
      );
    },
    async insertOf(queue, data, options = {}) {
      let captured: JobInsert | undefined;
      // pg-boss builds the statement and its JSON as for a send, and hands them to this executor.
      const capture = {
        executeSql: async (text: string, params: unknown[] = []) => {
          captured = { text, params };
          return { rows: [{ id: 'captured' }] };
        },
      };
      await boss.send(queue, data, sendOptionsOf(queue, capture, options));
      if (!captured) throw new Error(`pg-boss made no statement for a job of ${queue}.`);
      return captured;
    },
    async waitingFor(tx, queues, field) {
      if (queues.length === 0) return new Set();
      // pg-boss's own table (its schema is ours to name): created, retry and active are the states before
      // a job's end.
      const rows = await queryText<{ value: string }>(
        tx,
        `select distinct data->>$2 as value from pgboss.job
          where name = any($1::text[]) and state in ('created', 'retry', 'active') and data ? $2`,
        [[...queues], field],
      );
      return new Set(rows.map((row) => row.value));
    },
    async start() {
      if (started) return;
      await boss.start();
      for (const queue of QUEUES) await boss.createQueue(queue);
      started = true;
    },
    async work(handlers, { pollingSeconds = 1 } = {}) {
      for (const [queue, handler] of Object.entries(handlers)) {
        if (!handler) continue;
        await boss.work<Record<string, unknown>>(
          queue,
          {
            batchSize: 1,
            pollingIntervalSeconds: pollingSeconds,
            localConcurrency: LOCAL_CONCURRENCY[queue as QueueName] ?? 1,
          },
          async ([job]) => {
            if (job) await handler(job.data ?? {});
          },
        );
      }
    },
    async schedule(queue, cron) {
      await boss.schedule(queue, cron, {});
    },
    async stop(timeoutMs = 30_000) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };
}
