import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Client as HttpClient } from 'undici';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, KEPT_PLANS_OPTIONS, openDatabase } from '../apps/server/src/db/client.ts';
import { sweepExpired } from '../apps/server/src/jobs/housekeeping.ts';
import { encodeCursor } from '../apps/server/src/lib/cursor.ts';
import { localRangeToUtc } from '../apps/server/src/lib/timezone.ts';
import { startHttpThread } from './http-thread.ts';
import { baseUrl, fixed, serverLog, type Timing, timeRounds } from './lib.ts';
import { createListsDatabase, LISTS_MERCHANT_NO, LISTS_USER, type SeedOptions } from './lists-seed.ts';

// DESIGN 8, lists at 10,000,000 rows for one merchant on PostgreSQL. For each console list (collections,
// payouts, settlements, top-ups, withdrawals, fund flow) and each single filter it supports, over real HTTP
// (the app listening on 127.0.0.1 as main.ts starts it, a ROOT user's session cookie):
// - the first page against the bare SQL index query returning the same rows (node-postgres, prepared, on
//   its own pool; its plan must use an index): target <= 3x;
// - page 500 by cursor (meta.next_cursor's form, of page 499's last row) against page 1: target <= 1.2x;
// - the time of the sums (meta) the same request computes, and what it reads: from the rollups
//   (order_hourly and order_daily, fund_flow_hourly, fund_flow_daily and fund_flow_minutely, list_hourly),
//   never a scan of the matching rows; timed and explained with the plan the server runs them with (made without values,
//   on connections like its sums connections).
// The SQL the server sends for the page and for the sums is caught on its way out (as list-plans.test.ts
// does) and EXPLAIN ANALYZEd beside the bare query's, so a plan that differs (a sequential scan, a sort,
// rows read and thrown away) is named. Timed runs are interleaved (bare, HTTP, sums, page 500 in turn) so
// the load of other processes on the machine falls on all of them alike.
//
//   npm run bench -- seed-10m [--rows N] [--small N]        seeds and keeps a database, prints its name
//   npm run bench -- lists [--rows N] [--small N] [--runs N] seeds its own (default 10,000,000), drops it
//   npm run bench -- lists --reuse <database> [--drop] [--runs N]

const PER_PAGE = 20;
const DEEP_PAGE = 500;
const RATIO_TARGET = 3;
const DEEP_TARGET = 1.2;
const WARM_CALLS = 300;
const PATH_ROOT = '/api/merchant';

type Options = SeedOptions & { runs: number; reuse?: string; drop: boolean; keep: boolean };

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

function wholeNumber(name: string, fallback: number, min: number): number {
  const text = option(name);
  const value = text === undefined ? fallback : Number(text.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}.`);
  return value;
}

function readOptions(): Options {
  const rows = wholeNumber('rows', 10_000_000, 100_000);
  return {
    rows,
    small: wholeNumber('small', Math.min(100_000, rows), 10_000),
    runs: wholeNumber('runs', 100, 5),
    reuse: option('reuse'),
    drop: process.argv.includes('--drop'),
    keep: process.argv.includes('--keep'),
  };
}

const databaseUrl = (nameOrUrl: string) => {
  if (nameOrUrl.includes('://')) return nameOrUrl;
  const url = new URL(baseUrl);
  url.pathname = `/${nameOrUrl}`;
  return url.toString();
};

async function dropDatabase(name: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name.replaceAll('"', '')}" with (force)`);
  await admin.end();
}

/** `npm run bench -- seed-10m`: seeds a database for `lists --reuse` and keeps it. */
export async function runSeed10m(): Promise<void> {
  const options = readOptions();
  const bench = await createListsDatabase(options);
  await bench.database.close();
  console.log(`\nkept: ${bench.url}`);
  console.log(
    `measure it:  npm run bench -- lists --reuse ${bench.name}   (add --drop to drop it afterwards)`,
  );
  console.log(`drop it:     psql ${baseUrl} -c 'drop database ${bench.name}'`);
}

// ---- The lists and their filters (DESIGN 5; the shared list-query schemas of packages/shared).

type Filter = {
  label: string;
  /** The console's query string. */
  query: Record<string, string>;
  /** The same filter as SQL: column = value... */
  equals: Record<string, string>;
  range?: { start: string; end: string };
};

type List = {
  name: string;
  path: string;
  table: string;
  /** What identifies a row: the SQL column and the JSON field. */
  key: { column: string; field: string };
  /** Its rollup tables: hours and days. */
  rollups: string[];
  filters: Filter[];
};

type Row = Record<string, unknown> & { id: string; created_at: Date };

const byValue = (label: string, param: string, value: string, column = param): Filter => ({
  label: `${label}=${value}`,
  query: { [param]: value },
  equals: { [column]: value },
});

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

async function describeLists(bare: pg.Pool, merchantId: number): Promise<List[]> {
  const one = async <T>(text: string, values: unknown[] = []) =>
    (await bare.query(text, values)).rows[0] as T;
  // A row near the middle of each table: its numbers are the number filters' values.
  const middle = async (table: string, columns: string) =>
    one<Record<string, string>>(
      `select ${columns} from ${table} where merchant_id = $1
         and id >= (select (min(id) + max(id)) / 2 from ${table}) order by id limit 1`,
      [merchantId],
    );
  const newest = (
    await one<{ at: Date }>(`select max(created_at) as at from collections where merchant_id = $1`, [
      merchantId,
    ])
  ).at;
  const daysBack = (days: number) => new Date(newest.getTime() - days * 86_400_000);
  // A week a month back, by dates (whole hours: the sums read the rollups alone), and an afternoon of
  // that month to the minute (the partial hours at its two edges are read from the rows).
  const week: Filter = {
    label: `${utcDate(daysBack(37))}..${utcDate(daysBack(31))}`,
    query: { start_time: utcDate(daysBack(37)), end_time: utcDate(daysBack(31)) },
    equals: {},
    range: { start: utcDate(daysBack(37)), end: utcDate(daysBack(31)) },
  };
  const afternoonStart = `${utcDate(daysBack(33))} 13:17`;
  const afternoonEnd = `${utcDate(daysBack(33))} 16:42:59`;
  const afternoon: Filter = {
    label: `${afternoonStart}..${afternoonEnd.slice(11)} (to the minute)`,
    query: { start_time: afternoonStart, end_time: afternoonEnd },
    equals: {},
    range: { start: afternoonStart, end: afternoonEnd },
  };
  const collection = await middle('collections', 'trade_no, out_trade_no');
  const payout = await middle('payouts', 'trade_no, out_trade_no');
  const settlement = await middle('settlements', 'settlement_no');
  const topUp = await middle('recharges', 'recharge_no');
  const withdrawal = await middle('withdrawals', 'withdrawal_no');
  const refNo = await one<{ ref_no: string }>(
    `select ref_no from fund_flows where merchant_id = $1 and type = 'payout_refund'
       and id >= (select (min(id) + max(id)) / 2 from fund_flows) order by id limit 1`,
    [merchantId],
  );
  return [
    {
      name: 'collections',
      path: `${PATH_ROOT}/collections`,
      table: 'collections',
      key: { column: 'trade_no', field: 'trade_no' },
      rollups: ['order_hourly', 'order_daily'],
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('status', 'status', 'paid'),
        byValue('status', 'status', 'failed'),
        week,
        afternoon,
        byValue('trade_no', 'trade_no', collection.trade_no),
        byValue('out_trade_no', 'out_trade_no', collection.out_trade_no),
      ],
    },
    {
      name: 'payouts',
      path: `${PATH_ROOT}/payouts`,
      table: 'payouts',
      key: { column: 'trade_no', field: 'trade_no' },
      rollups: ['order_hourly', 'order_daily'],
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('status', 'status', 'success'),
        byValue('status', 'status', 'refund_received'),
        week,
        afternoon,
        byValue('trade_no', 'trade_no', payout.trade_no),
        byValue('out_trade_no', 'out_trade_no', payout.out_trade_no),
      ],
    },
    {
      name: 'settlements',
      path: `${PATH_ROOT}/settlements`,
      table: 'settlements',
      rollups: ['list_hourly', 'list_daily'],
      key: { column: 'settlement_no', field: 'settlement_no' },
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('channel', 'channel', 'alipay-qr', 'channel_code'),
        byValue('channel', 'channel', 'unionpay', 'channel_code'),
        week,
        byValue('settlement_no', 'settlement_no', settlement.settlement_no),
      ],
    },
    {
      name: 'top-ups',
      path: `${PATH_ROOT}/recharges`,
      table: 'recharges',
      rollups: ['list_hourly', 'list_daily'],
      key: { column: 'recharge_no', field: 'recharge_no' },
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('status', 'status', 'approved'),
        byValue('status', 'status', 'rejected'),
        byValue('network', 'network', 'ERC20'),
        week,
        byValue('recharge_no', 'recharge_no', topUp.recharge_no),
      ],
    },
    {
      name: 'withdrawals',
      path: `${PATH_ROOT}/withdrawals`,
      table: 'withdrawals',
      rollups: ['list_hourly', 'list_daily'],
      key: { column: 'withdrawal_no', field: 'withdrawal_no' },
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('status', 'status', 'paid'),
        byValue('status', 'status', 'rejected'),
        byValue('network', 'network', 'ERC20'),
        week,
        byValue('withdrawal_no', 'withdrawal_no', withdrawal.withdrawal_no),
      ],
    },
    {
      name: 'fund flow',
      path: `${PATH_ROOT}/fund-flows`,
      table: 'fund_flows',
      key: { column: 'id', field: 'id' },
      rollups: ['fund_flow_hourly', 'fund_flow_daily'],
      filters: [
        { label: '(none)', query: {}, equals: {} },
        byValue('type', 'type', 'transfer_in'),
        byValue('type', 'type', 'collection_settlement'),
        week,
        afternoon,
        byValue('ref_no', 'ref_no', refNo.ref_no),
      ],
    },
  ];
}

// ---- The bare SQL: the list's index query, by the filter's columns, newest first.

type Bare = { text: string; values: unknown[] };

function bareQuery(
  list: List,
  filter: Filter,
  merchantId: number,
  page: { offset: number } | { after: Row },
  limit = PER_PAGE,
): Bare {
  const values: unknown[] = [merchantId];
  const where = ['merchant_id = $1'];
  for (const [column, value] of Object.entries(filter.equals)) {
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  if (filter.range) {
    const { from, to } = localRangeToUtc(filter.range.start, filter.range.end, 'UTC');
    values.push(from!.toISOString(), to!.toISOString());
    where.push(
      `created_at >= $${values.length - 1}::timestamptz and created_at < $${values.length}::timestamptz`,
    );
  }
  if ('after' in page) {
    values.push(page.after.created_at, page.after.id);
    where.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length}::int8)`);
  }
  values.push(limit, 'offset' in page ? page.offset : 0);
  return {
    text: `select * from ${list.table} where ${where.join(' and ')}
           order by created_at desc nulls last, id desc nulls last
           limit $${values.length - 1} offset $${values.length}`,
    values,
  };
}

// ---- Plans.

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

/** EXPLAIN (ANALYZE, FORMAT JSON) of a query with its parameters. */
async function explain(pool: pg.Pool, query: Bare): Promise<PlanNode> {
  const { rows } = await pool.query(`explain (analyze, format json) ${query.text}`, query.values);
  return (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
}

/** explain() of a query prepared on a connection of `pool` (KEPT_PLANS_OPTIONS): the server's plan for it. */
async function explainPrepared(pool: pg.Pool, query: Bare): Promise<PlanNode> {
  const client = await pool.connect();
  const literal = (value: unknown) =>
    typeof value === 'number' ? String(value) : client.escapeLiteral(String(value));
  try {
    await client.query(`prepare explained as ${query.text}`);
    const args = query.values.length > 0 ? `(${query.values.map(literal).join(', ')})` : '';
    const { rows } = await client.query(`explain (analyze, format json) execute explained${args}`);
    return (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
  } finally {
    await client.query('deallocate explained').catch(() => undefined);
    client.release();
  }
}

const walk = (node: PlanNode, visit: (n: PlanNode) => void) => {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
};

/** The plan's first Limit node: a page's own part of a plan that also reads the session's rows. */
function limitOf(plan: PlanNode): PlanNode {
  let found: PlanNode | undefined;
  walk(plan, (n) => {
    if (!found && n['Node Type'] === 'Limit') found = n;
  });
  return found ?? plan;
}

/** "Limit > Index Scan collections_merchant_status_created_idx": the plan's shape, without its numbers. */
function shapeOf(plan: PlanNode): string {
  const parts: string[] = [];
  walk(plan, (n) => {
    if (['Aggregate', 'Append', 'Subquery Scan', 'Result'].includes(n['Node Type']) && !n['Relation Name'])
      return;
    parts.push(
      n['Index Name']
        ? `${n['Node Type']} ${n['Index Name']}`
        : n['Relation Name']
          ? `${n['Node Type']} ${n['Relation Name']}`
          : n['Node Type'],
    );
  });
  return parts.join(' > ');
}

/** Rows each table's scans produced or threw away (what a query read). */
function rowsRead(plan: PlanNode): Map<string, number> {
  const read = new Map<string, number>();
  walk(plan, (n) => {
    const table = n['Relation Name'];
    if (!table) return;
    const loops = n['Actual Loops'] ?? 1;
    const rows =
      ((n['Actual Rows'] ?? 0) +
        (n['Rows Removed by Filter'] ?? 0) +
        (n['Rows Removed by Index Recheck'] ?? 0)) *
      loops;
    read.set(table, (read.get(table) ?? 0) + rows);
  });
  return read;
}

const seqScanned = (plan: PlanNode) => {
  const tables: string[] = [];
  walk(plan, (n) => {
    if (n['Node Type'] === 'Seq Scan' && n['Relation Name']) tables.push(n['Relation Name']);
  });
  return tables;
};

const usesIndex = (plan: PlanNode) => {
  let index = false;
  let seq = false;
  walk(plan, (n) => {
    if (/Index/.test(n['Node Type'])) index = true;
    if (n['Node Type'] === 'Seq Scan') seq = true;
  });
  return index && !seq;
};

// ---- HTTP.

type Answer = { status: number; body: string };

// undici's client on one kept-alive connection, as the payout bench's clients: about a third less CPU per
// request than node:http's agent. The timed client runs on a thread of its own (http-thread.ts); this one,
// on the server's thread, is only the floor's second reading: what the figures were before.
async function httpGet(client: HttpClient, path: string, headers: Record<string, string>): Promise<Answer> {
  const answer = await client.request({ path, method: 'GET', headers });
  return { status: answer.statusCode, body: await answer.body.text() };
}

type ListAnswer = {
  data: Record<string, unknown>[];
  meta: { total: number; next_cursor: string | null; sums: Record<string, unknown> };
};

// ---- Timing: every function once per round (lib.ts timeRounds); no more rounds once the filter has had
// BUDGET_MS and MIN_RUNS of them (a sums scan of 100,000 rows takes 100 ms).

const MIN_RUNS = 10;
const BUDGET_MS = 10_000;
const timeTogether = (fns: (() => Promise<unknown>)[], runs: number) =>
  timeRounds(fns, runs, { minRuns: MIN_RUNS, budgetMs: BUDGET_MS });

// ---- The benchmark.

type Result = {
  list: string;
  filter: string;
  total: number;
  bare: Timing;
  http: Timing;
  sums: Timing;
  sumsRead: string;
  deep?: { http: Timing; bare: Timing };
  notes: string[];
};

export async function runLists(): Promise<void> {
  const options = readOptions();
  const startedAt = performance.now();
  let database: Database;
  let name: string;
  let dropAtEnd: () => Promise<void>;
  if (options.reuse) {
    const url = databaseUrl(options.reuse);
    name = new URL(url).pathname.slice(1);
    database = await openDatabase({ url, poolSize: 20 });
    // A database seeded by an earlier version gets this version's migrations (indexes, rollups).
    await database.migrate();
    dropAtEnd = async () => {
      await database.close();
      if (options.drop) {
        await dropDatabase(name);
        console.log(`dropped ${name}`);
      }
    };
  } else {
    const bench = await createListsDatabase(options);
    database = bench.database;
    name = bench.name;
    dropAtEnd = async () => {
      if (options.keep) {
        await database.close();
        console.log(`kept ${name}: npm run bench -- lists --reuse ${name}`);
      } else await bench.drop();
    };
  }
  // The rollups as the housekeeping job keeps them: the slots of the hours over folded into one row, the
  // days over summed into order_daily and fund_flow_daily, the fund flows of the hours over by minute.
  const sweepStarted = performance.now();
  await sweepExpired(database.db);
  console.log(
    `housekeeping's sweep (order_hourly folded, days and minutes closed) in ${fixed((performance.now() - sweepStarted) / 1000, 1)} s`,
  );
  // That first sweep folds 90 days of slots at once (256,000 rows gone), which no live database does: its
  // sweeps fold an hour's slots at a time, and the pages of the unfolded-slot indexes, emptied each time,
  // are reused. Left as the one big fold leaves them (346 pages, nearly all empty, for 157 entries), the
  // planner costs them above the primary key and the sums of a status filter read 2,000 folded rows
  // through it (1.6 ms against 0.3 ms). Rebuilt, they are as compact as a live database keeps them.
  await database.db.execute(sql`reindex index order_hourly_unfolded_idx`);
  await database.db.execute(sql`reindex index order_hourly_unfolded_status_idx`);
  await database.db.execute(
    sql`vacuum analyze order_hourly, order_daily, fund_flow_daily, fund_flow_minutely`,
  );
  const bare = new pg.Pool({ connectionString: databaseUrl(name), max: 2 });
  // The sums as the server runs them: on connections that keep a statement's plan made without values.
  const kept = new pg.Pool({ connectionString: databaseUrl(name), max: 1, options: KEPT_PLANS_OPTIONS });
  const logs = serverLog();
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let client: HttpClient | undefined;
  let thread: ReturnType<typeof startHttpThread> | undefined;
  try {
    const merchant = (
      await bare.query<{ id: string }>(`select id from merchants where no = $1`, [LISTS_MERCHANT_NO])
    ).rows[0];
    if (!merchant) throw new Error(`${name} has no merchant ${LISTS_MERCHANT_NO}: seed it with seed-10m.`);
    const merchantId = Number(merchant.id);
    const lists = await describeLists(bare, merchantId);

    // The server as main.ts runs it (request logs at info, into /dev/null), no jobs (the settlement job
    // would settle the orders still waiting), NODE_ENV=test only for the per-IP request ceiling.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      APP_KEY: `base64:${Buffer.alloc(32, 5).toString('base64')}`,
      DATA_DIR: '/tmp/paydesk-bench',
      JOBS: 'off',
    });
    app = await buildApp({ config, database, logStream: logs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    const csrf = await app.inject({ method: 'GET', url: '/api/csrf-cookie' });
    const xsrf = csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, accept: 'application/json' },
      payload: { email: LISTS_USER.email, password: LISTS_USER.password },
    });
    const session = login.cookies.find((c) => c.name === 'paydesk_session')?.value;
    if (login.statusCode !== 200 || !session)
      throw new Error(`Login answered ${login.statusCode}: ${login.body}`);
    const headers = { cookie: `paydesk_session=${session}`, accept: 'application/json', 'x-timezone': 'UTC' };
    client = new HttpClient(base, { pipelining: 1 });
    const http = client;
    thread = startHttpThread(base, headers);
    const get = thread.get;
    const getList = async (path: string): Promise<ListAnswer> => {
      const answer = await get(path);
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body}`);
      return JSON.parse(answer.body) as ListAnswer;
    };

    /** The SQL the server sends while answering `path`, caught on its way out. */
    const sentBy = async (path: string): Promise<Bare[]> => {
      const sent: Bare[] = [];
      const original = pg.Client.prototype.query;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const [config, values] = args as [
          string | { text: string; values?: unknown[] },
          unknown[] | undefined,
        ];
        if (typeof config === 'string') sent.push({ text: config, values: values ?? [] });
        else if (config && typeof config.text === 'string')
          sent.push({ text: config.text, values: config.values ?? values ?? [] });
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof original;
      try {
        await getList(path);
      } finally {
        pg.Client.prototype.query = original;
      }
      return sent;
    };
    const pageAndSums = (list: List, sent: Bare[]) => {
      const page = sent.filter(
        (q) => q.text.includes(`from "${list.table}"`) && /order by/i.test(q.text) && /limit/i.test(q.text),
      );
      // Not a session lookup of its own, nor pg-boss's own polling (it runs with JOBS=off too, to send
      // jobs). A read on a remembered session carries the session's confirmation in its sums statement.
      const sums = sent.filter(
        (q) =>
          !page.includes(q) &&
          !/pgboss\./.test(q.text) &&
          (!/"sessions"/.test(q.text) || q.text.includes('coalesce(sum(')),
      );
      // A search by number is one statement: its page with the session's confirmation, its totals the
      // page's rows (the list kit's read).
      const whole = page.length === 1 && sums.length === 0 && page[0].text.includes('"sessions"');
      if (page.length !== 1 || (sums.length !== 1 && !whole))
        throw new Error(
          `Expected one page query and one sums query, caught:\n${sent.map((q) => q.text).join('\n')}`,
        );
      return { page: page[0], sums: sums[0] as Bare | undefined };
    };

    const prepared =
      (query: Bare, statement: string, pool = bare) =>
      () =>
        pool.query({ name: statement, text: query.text, values: query.values });
    const keysOf = (list: List, answer: ListAnswer) =>
      answer.data.map((r) => String(r[list.key.field])).join();
    const rowKeys = (list: List, rows: Row[]) => rows.map((r) => String(r[list.key.column])).join();

    console.log(
      `\nlists: database ${name}, merchant ${LISTS_MERCHANT_NO}, ${PER_PAGE} rows a page, up to ${options.runs} timed runs each (interleaved; at least ${MIN_RUNS}, ${BUDGET_MS / 1000} s a filter)`,
    );
    // A server in service is warm: every list call below is first made WARM_CALLS times, so that V8 has
    // optimised the request's code (Fastify, zod, drizzle, pg) before any of it is timed. Without this, the
    // first lists measured ran up to 1.7 ms slower than the same calls warm, and the first list's ratio
    // said more about the JIT than about the list.
    const warmStarted = performance.now();
    for (const list of lists) {
      for (const filter of list.filters) {
        const search = new URLSearchParams({ ...filter.query, per_page: String(PER_PAGE) }).toString();
        for (let i = 0; i < WARM_CALLS; i++) await getList(`${list.path}?${search}`);
      }
    }
    for (let i = 0; i < WARM_CALLS; i++) await getList(`${PATH_ROOT}/user`);
    console.log(
      `warm-up: every list call ${WARM_CALLS} times in ${fixed((performance.now() - warmStarted) / 1000, 1)} s`,
    );
    // What every list request pays before its own queries: the session, user and merchant lookup, the
    // guards, Fastify and the JSON, on the cheapest signed-in call there is.
    // Read twice: by the client thread every figure below is timed with, and by a client on the server's
    // own thread, as this benchmark timed them before (its answer waits for the server's work after the
    // answer, and its parsing delays the server).
    const [floor, floorInline] = await timeTogether(
      [() => get(`${PATH_ROOT}/user`), () => httpGet(http, `${PATH_ROOT}/user`, headers)],
      options.runs,
    );
    console.log(
      `\nHTTP floor: GET ${PATH_ROOT}/user (session + user + merchant in one query, no list): ${fixed(floor.median, 3)} ms median, p95 ${fixed(floor.p95, 3)}` +
        `\n  (with the client on the server's thread: ${fixed(floorInline.median, 3)} ms median, p95 ${fixed(floorInline.p95, 3)})`,
    );

    const results: Result[] = [];
    let statement = 0;
    const line = (label: string, text: string) => console.log(`    ${label.padEnd(26)}${text}`);
    const ratioText = (value: number, target: number) =>
      `${fixed(value)}x [target <= ${target}x] ${value <= target ? 'met' : 'MISSED'}`;
    const t = (timing: Timing) => `${fixed(timing.median, 3)} ms (p95 ${fixed(timing.p95, 3)})`;

    for (const list of lists) {
      const first = await getList(`${list.path}?per_page=${PER_PAGE}`);
      console.log(`\n== ${list.name}: GET ${list.path}, ${first.meta.total.toLocaleString('en')} rows`);
      for (const filter of list.filters) {
        const search = new URLSearchParams({ ...filter.query, per_page: String(PER_PAGE) }).toString();
        const path = `${list.path}?${search}`;
        const notes: string[] = [];
        const answer = await getList(path);
        const total = answer.meta.total;
        console.log(`  ${filter.label}: ${total.toLocaleString('en')} matching`);

        // The same rows, or the comparison means nothing.
        const barePage = bareQuery(list, filter, merchantId, { offset: 0 });
        const bareRows = (await bare.query<Row>(barePage.text, barePage.values)).rows;
        if (keysOf(list, answer) !== rowKeys(list, bareRows))
          throw new Error(
            `${list.name} ${filter.label}: the API and the bare query answered different rows.`,
          );

        const barePlan = await explain(bare, barePage);
        const { page: serverPage, sums: serverSums } = pageAndSums(list, await sentBy(path));
        // The page's own part of the server's plan (beside the session's rows when it carries them).
        const serverPlan = limitOf(await explain(bare, serverPage));
        const sumsPlan = serverSums ? await explainPrepared(kept, serverSums) : undefined;
        const bareRead = rowsRead(barePlan).get(list.table) ?? 0;
        line(
          'bare query plan',
          `${shapeOf(barePlan)}, reads ${bareRead.toLocaleString('en')} rows${usesIndex(barePlan) ? '' : '   (NO INDEX)'}`,
        );
        if (!usesIndex(barePlan)) notes.push('the bare query uses no index');
        const serverRead = rowsRead(serverPlan).get(list.table) ?? 0;
        if (shapeOf(serverPlan) !== shapeOf(barePlan)) {
          line('server page plan', `${shapeOf(serverPlan)}   (DIFFERS)`);
          notes.push(`server plan differs: ${shapeOf(serverPlan)}`);
        }
        // The server reads one row more than a page (to know whether a next page exists).
        if (serverRead > bareRead * 1.1 + 2) {
          line(
            'server page reads',
            `${serverRead.toLocaleString('en')} rows (bare: ${bareRead.toLocaleString('en')})`,
          );
          notes.push(`server page reads ${serverRead} rows, bare ${bareRead}`);
        }
        const read = sumsPlan ? rowsRead(sumsPlan) : new Map<string, number>();
        const fromTable = read.get(list.table) ?? 0;
        const readText = [...read].map(([table, n]) => `${table} ${n.toLocaleString('en')}`).join(', ');
        const fromRollups = list.rollups.reduce((n, table) => n + (read.get(table) ?? 0), 0);
        const sumsRead = !sumsPlan
          ? `the page's rows (one statement)`
          : list.rollups.some((table) => read.has(table))
            ? fromTable === 0
              ? `rollups only (${fromRollups.toLocaleString('en')} rows)`
              : `rollups + ${fromTable.toLocaleString('en')} rows at the hour edges`
            : fromTable <= 1
              ? `${fromTable} row by number`
              : `SCAN of ${fromTable.toLocaleString('en')} rows (no rollup)`;
        if (sumsPlan) line('sums plan', shapeOf(sumsPlan));
        line('sums read', `${readText || 'the page'}: ${sumsRead}`);
        if (sumsRead.startsWith('SCAN')) notes.push(`sums: ${sumsRead}`);
        // The hourly rollup grows with time; a day rollup is small enough for any plan.
        const [hourly] = list.rollups;
        if (sumsPlan && seqScanned(sumsPlan).includes(hourly))
          notes.push(`sums: Seq Scan of ${hourly} (${read.get(hourly)!.toLocaleString('en')} rows read)`);

        const fns = [
          prepared(barePage, `bare_${statement++}`),
          () => get(path),
          // Named and on a connection like the server's sums connections (its plan made without values).
          // A search by number has no sums statement: its one statement (page and session) is timed instead.
          serverSums
            ? prepared(serverSums, `sums_${statement++}`, kept)
            : prepared(serverPage, `sums_${statement++}`),
        ];
        // Page 500 by the cursor of page 499's last row, as the console pages with meta.next_cursor.
        let deepPath: string | undefined;
        let bareDeep: Bare | undefined;
        if (total >= DEEP_PAGE * PER_PAGE) {
          const before = bareQuery(list, filter, merchantId, { offset: (DEEP_PAGE - 1) * PER_PAGE - 1 }, 1);
          const last = (await bare.query<Row>(before.text, before.values)).rows[0];
          const cursor = encodeCursor({ createdAt: new Date(last.created_at), id: Number(last.id) });
          deepPath = `${list.path}?${search}&page=${DEEP_PAGE}&cursor=${cursor}`;
          bareDeep = bareQuery(list, filter, merchantId, { after: last });
          const deep = await getList(deepPath);
          const byOffset = bareQuery(list, filter, merchantId, { offset: (DEEP_PAGE - 1) * PER_PAGE });
          if (
            keysOf(list, deep) !== rowKeys(list, (await bare.query<Row>(byOffset.text, byOffset.values)).rows)
          )
            throw new Error(
              `${list.name} ${filter.label}: page ${DEEP_PAGE} by cursor is not rows 9,981 to 10,000.`,
            );
          const { page: deepPage } = pageAndSums(list, await sentBy(deepPath));
          const deepPlan = await explain(bare, deepPage);
          const deepRead = rowsRead(deepPlan).get(list.table) ?? 0;
          if (deepRead > 2 * (PER_PAGE + 1)) {
            line(
              `server page ${DEEP_PAGE} reads`,
              `${deepRead.toLocaleString('en')} rows: ${shapeOf(deepPlan)}`,
            );
            notes.push(`page ${DEEP_PAGE} by cursor reads ${deepRead} rows`);
          }
          fns.push(() => get(deepPath!), prepared(bareDeep, `bare_deep_${statement++}`));
        }
        const [bareTime, httpTime, sumsTime, deepHttp, deepBare] = await timeTogether(fns, options.runs);
        line('bare SQL page 1', `${t(bareTime)}   ${bareTime.runs} runs`);
        line('HTTP page 1', `${t(httpTime)}   ${ratioText(httpTime.median / bareTime.median, RATIO_TARGET)}`);
        line(serverSums ? 'sums (meta) SQL' : 'page + session SQL', t(sumsTime));
        if (deepHttp) {
          line(
            `HTTP page ${DEEP_PAGE} by cursor`,
            `${t(deepHttp)}   ${ratioText(deepHttp.median / httpTime.median, DEEP_TARGET)} of page 1`,
          );
          line(`bare keyset page ${DEEP_PAGE}`, t(deepBare));
        }
        results.push({
          list: list.name,
          filter: filter.label,
          total,
          bare: bareTime,
          http: httpTime,
          sums: sumsTime,
          sumsRead,
          deep: deepHttp ? { http: deepHttp, bare: deepBare } : undefined,
          notes,
        });
      }
    }

    // ---- Summary.
    console.log(
      `\nsummary (medians; HTTP page 1 / bare target <= ${RATIO_TARGET}x, page ${DEEP_PAGE} / page 1 target <= ${DEEP_TARGET}x):`,
    );
    console.log(
      `  ${'list'.padEnd(12)}${'filter'.padEnd(46)}${'matching'.padStart(12)}${'bare'.padStart(10)}${'HTTP'.padStart(10)}${'ratio'.padStart(9)}${'p500'.padStart(10)}${'ratio'.padStart(8)}${'sums'.padStart(10)}  sums read`,
    );
    let missed = 0;
    for (const r of results) {
      const ratio = r.http.median / r.bare.median;
      const deepRatio = r.deep ? r.deep.http.median / r.http.median : undefined;
      if (ratio > RATIO_TARGET) missed += 1;
      if (deepRatio !== undefined && deepRatio > DEEP_TARGET) missed += 1;
      console.log(
        `  ${r.list.padEnd(12)}${r.filter.slice(0, 45).padEnd(46)}${r.total.toLocaleString('en').padStart(12)}` +
          `${fixed(r.bare.median, 3).padStart(10)}${fixed(r.http.median, 3).padStart(10)}` +
          `${`${fixed(ratio, 1)}x${ratio <= RATIO_TARGET ? ' ' : '!'}`.padStart(9)}` +
          `${(r.deep ? fixed(r.deep.http.median, 3) : '-').padStart(10)}` +
          `${(deepRatio === undefined ? '-' : `${fixed(deepRatio)}x${deepRatio <= DEEP_TARGET ? ' ' : '!'}`).padStart(8)}` +
          `${fixed(r.sums.median, 3).padStart(10)}  ${r.sumsRead}`,
      );
    }
    console.log(`  (ms; "!" = target missed: ${missed} figure(s); HTTP floor ${fixed(floor.median, 3)} ms)`);
    const noted = results.filter((r) => r.notes.length > 0);
    if (noted.length > 0) {
      console.log("\nthe server's queries against the bare ones:");
      for (const r of noted) console.log(`  ${r.list} ${r.filter}: ${r.notes.join('; ')}`);
    }
    console.log(
      `\nload average (1 min) at the end ${fixed(loadavg()[0])} on ${cpus().length} cores; whole run ${fixed((performance.now() - startedAt) / 1000, 1)} s`,
    );
  } finally {
    await client?.close();
    await thread?.close();
    await app?.close();
    logs.end();
    await bare.end();
    await kept.end();
    await dropAtEnd();
  }
}
