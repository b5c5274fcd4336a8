import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import pino from 'pino';

// Shared by the benchmarks: a database of their own on the PostgreSQL of DATABASE_URL (created and
// dropped here), timing, and pgbench. Every figure is printed beside a baseline measured in the same run.

/**
 * The server's request log as main.ts writes it (pino's own destination, synchronous as on stdout, with
 * the app's serializers: buildApp's logStream), into /dev/null.
 */
export const serverLog = () => pino.destination({ dest: '/dev/null', sync: true });

export const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export type BenchDatabase = { name: string; url: string; database: Database; drop(): Promise<void> };

export async function createBenchDatabase(label: string, poolSize = 20): Promise<BenchDatabase> {
  const name = `paydesk_bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize, statementTimeoutMs: 600_000 });
  await database.migrate();
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await database.close().catch(() => undefined);
    const dropper = new pg.Client({ connectionString: baseUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  process.once('SIGINT', () => void drop().finally(() => process.exit(130)));
  return { name, url: url.toString(), database, drop };
}

export type Timing = { median: number; p95: number; runs: number };

/** Runs fn `runs` times one after the other (after a warm-up) and answers the median and p95 in ms. */
export async function time(fn: () => Promise<unknown>, runs = 300, warmup = 30): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)], p95: samples[Math.floor(runs * 0.95)], runs };
}

/**
 * Times several functions in the same rounds (each once per round, one after the other, after a warm-up),
 * so that whatever the machine does meanwhile weighs on each alike: a ratio of two of them compares like
 * with like. Stops early once `budgetMs` has passed and `minRuns` rounds are done. A function that times
 * itself (the HTTP client thread, http-thread.ts) answers `{ elapsedMs }`, which is taken instead.
 */
export async function timeRounds(
  fns: (() => Promise<unknown>)[],
  runs: number,
  { minRuns = runs, budgetMs = Infinity }: { minRuns?: number; budgetMs?: number } = {},
): Promise<Timing[]> {
  const warmup = Math.max(3, Math.round(runs / 10));
  const samples: number[][] = fns.map(() => []);
  const started = performance.now();
  for (let i = 0; i < warmup + runs; i++) {
    if (i >= warmup + minRuns && performance.now() - started > budgetMs) break;
    for (const [k, fn] of fns.entries()) {
      const at = performance.now();
      const result = await fn();
      const took = performance.now() - at;
      if (i >= warmup) samples[k].push(selfTimed(result) ?? took);
    }
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)], runs: s.length };
  });
}

const selfTimed = (result: unknown) =>
  result && typeof result === 'object' && 'elapsedMs' in result && typeof result.elapsedMs === 'number'
    ? result.elapsedMs
    : undefined;

/** Runs `clients` loops of fn for `seconds`; answers completed operations per second and the failures. */
export async function throughput(
  clients: number,
  seconds: number,
  fn: (client: number, i: number) => Promise<unknown>,
) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; performance.now() < until; i++) {
        try {
          await fn(client, i);
          done += 1;
        } catch {
          failed += 1;
        }
      }
    }),
  );
  return { tps: done / ((performance.now() - started) / 1000), done, failed };
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}:\n${out}`)),
    );
  });
}

/**
 * pgbench's TPS (without the initial connection time) on the database at `url`, with `clients` clients
 * on 2 threads for `seconds`: its simple-update transaction (-N), or a script of ours as prepared
 * statements.
 */
export async function measurePgbench(
  url: string,
  { clients, seconds, script }: { clients: number; seconds: number; script?: string },
): Promise<number> {
  const what = script ? ['-M', 'prepared', '-f', script] : ['-N'];
  const out = await run('pgbench', [
    ...what,
    '-c',
    String(clients),
    '-j',
    '2',
    '-T',
    String(seconds),
    '-n',
    url,
  ]);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`Could not read pgbench's TPS:\n${out}`);
  return tps;
}

export const ms = (value: number) => `${value.toFixed(3)} ms`;
export const fixed = (value: number, digits = 2) => value.toFixed(digits);

/**
 * Runs `slices` rounds of the baseline, then the measured run, one after the other: this machine's speed
 * drifts by a fifth within minutes, so a baseline taken once before every run would compare different
 * machines. A ratio of the sums compares the same minutes.
 */
export async function interleaved<T>(
  slices: number,
  baseline: (slice: number) => Promise<number>,
  measured: (slice: number) => Promise<T>,
): Promise<{ baselines: number[]; results: T[] }> {
  const baselines: number[] = [];
  const results: T[] = [];
  for (let slice = 0; slice < slices; slice++) {
    baselines.push(await baseline(slice));
    results.push(await measured(slice));
  }
  return { baselines, results };
}

/** CPU seconds used so far by each process named `postgres` (server and backends), from /proc. */
function postgresCpuSeconds(): Map<string, number> | undefined {
  try {
    const seconds = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    }
    return seconds;
  } catch {
    return undefined;
  }
}

/** The machine's CPU seconds, busy and in all (every core), from /proc/stat. */
function machineCpuSeconds(): { busy: number; all: number } | undefined {
  try {
    const times = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const all = times.reduce((sum, t) => sum + t, 0);
    // idle and iowait are not busy.
    return { busy: (all - times[3] - times[4]) / 100, all: all / 100 };
  } catch {
    return undefined;
  }
}

/**
 * Where the CPU went while the measured runs ran (summed over them): PostgreSQL's processes, this
 * process (the server's thread and the clients' worker thread), and the share of the machine left idle.
 * Linux only (/proc); elsewhere the figures read n/a.
 */
export function cpuMeter() {
  let postgres = 0;
  let own = 0;
  let busy = 0;
  let all = 0;
  let known = true;
  return {
    async during<T>(fn: () => Promise<T>): Promise<T> {
      const [pg0, me0, m0] = [postgresCpuSeconds(), process.cpuUsage(), machineCpuSeconds()];
      const result = await fn();
      const [pg1, me1, m1] = [postgresCpuSeconds(), process.cpuUsage(me0), machineCpuSeconds()];
      if (pg0 === undefined || pg1 === undefined || !m0 || !m1) known = false;
      else {
        // By process: one that ended meanwhile (pgbench's backends, still exiting as fn began) took
        // its time with it; one that began counts whole.
        for (const [pid, used] of pg1) postgres += used - (pg0.get(pid) ?? 0);
        busy += m1.busy - m0.busy;
        all += m1.all - m0.all;
      }
      own += (me1.user + me1.system) / 1e6;
      return result;
    },
    /** "postgres 1.16 ms, this process 1.30 ms per payout; machine idle 19%". */
    report(operations: number, what: string): string {
      const per = (seconds: number) => `${((seconds * 1000) / Math.max(1, operations)).toFixed(2)} ms`;
      if (!known || all === 0) return `this process ${per(own)} per ${what}; postgres n/a`;
      return `postgres ${per(postgres)}, this process ${per(own)} per ${what}; machine idle ${((1 - busy / all) * 100).toFixed(0)}%`;
    },
  };
}
