import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { createJobRunner } from '../apps/server/src/db/jobs.ts';
import { merchants, users } from '../apps/server/src/db/schema/index.ts';
import { createLocalStorage } from '../apps/server/src/lib/storage/local-storage.ts';
import {
  createExportsService,
  type ExportsService,
  exportKindHandlers,
} from '../apps/server/src/modules/exports/index.ts';
import { createDailyReportsService } from '../apps/server/src/modules/reports/index.ts';
import { startExportWorker } from '../apps/server/test/helpers/server-process.ts';
import { type BenchDatabase, createBenchDatabase, fixed } from './lib.ts';

// Exports of one merchant's fund flows (DESIGN section 8): CSV at least 0.3 of the speed of
// `COPY (...) TO STDOUT` of the same rows in the same run, XLSX at least 0.1, and the worker's peak memory
// under 200 MB at N and 3 N rows (default N = 1,000,000; `--rows N`). Each export is made by a real
// `npm run worker:exports` process, its peak RSS read from /proc (VmHWM).

const argRows = () => {
  const at = process.argv.indexOf('--rows');
  const value = at > 0 ? Number(process.argv[at + 1]) : Number(process.env.BENCH_ROWS ?? 1_000_000);
  if (!Number.isInteger(value) || value < 1000)
    throw new Error('--rows must be a whole number of at least 1000.');
  return value;
};

type ExportRun = {
  status: string;
  error: string | null;
  rows: number;
  size: number;
  ms: number;
  startRssMb: number;
  peakRssMb: number;
};

/** VmRSS (now) and VmHWM (peak) of a process, in MB, from /proc. */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * One export made by a real `npm run worker:exports` process (started for this export alone, so that its
 * peak memory is this export's): the task is created through the exports service here, its job taken by
 * the worker. The time is the task's own, started_at to finished_at.
 */
async function exportByWorker(
  bench: BenchDatabase,
  exports: ExportsService,
  merchantId: number,
  userId: number,
  format: 'csv' | 'xlsx',
): Promise<ExportRun> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-bench-exports-'));
  let child: ChildProcess | undefined;
  try {
    ({ child } = await startExportWorker({
      DATABASE_URL: bench.url,
      DATA_DIR: dataDir,
      APP_KEY: `base64:${Buffer.alloc(32, 5).toString('base64')}`,
    }));
    const startRssMb = memoryOf(child.pid!).rssMb;
    const task = await exports.create(
      {
        userId,
        merchantId,
        mode: 'live',
        perms: ['funds:view', 'export:create', 'export:view'],
        timeZone: 'Asia/Shanghai',
        locale: 'zh-cn',
      },
      { kind: 'fund_flows', format, filters: {}, locale: 'zh-cn' },
    );
    let peakMb = 0;
    for (;;) {
      peakMb = Math.max(peakMb, memoryOf(child.pid!).peakMb);
      const [row] = await queryRows<{
        status: string;
        error: string | null;
        row_count: number | null;
        size: string | null;
        ms: number | null;
      }>(
        bench.database.db,
        sql`select status, error, rows_done as row_count, size::text, extract(epoch from finished_at - started_at) * 1000 as ms
              from export_tasks where id = ${task.id}`,
      );
      if (row && (row.status === 'success' || row.status === 'failed')) {
        return {
          status: row.status,
          error: row.error,
          rows: Number(row.row_count ?? 0),
          size: Number(row.size ?? 0),
          ms: Number(row.ms),
          startRssMb,
          peakRssMb: peakMb,
        };
      }
      await setTimeout(100);
    }
  } finally {
    child?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** COPY of the same rows, in the same order, to a client that only counts the bytes (psql to a pipe). */
function copyBaseline(url: string, merchantId: number): Promise<{ ms: number; bytes: number }> {
  const query = `copy (select id, created_at, type, amount_minor, available_after_minor, ref_no, note
    from fund_flows where merchant_id = ${merchantId}
    order by created_at desc nulls last, id desc nulls last) to stdout with (format csv, header)`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [url, '-X', '-q', '-c', query], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error(`psql: ${err}`)),
    );
  });
}

export async function runExports(): Promise<void> {
  const rows = argRows();
  const bench = await createBenchDatabase('exports');
  let stopJobs = async () => {};
  try {
    const { db } = bench.database;
    const [merchant] = await db
      .insert(merchants)
      .values({ no: 'MBX1', name: 'Bench exports', currency: 'CNY' })
      .returning();
    const [user] = await db
      .insert(users)
      .values({
        merchantId: merchant!.id,
        name: 'Bench',
        email: 'bench@exports.test',
        passwordHash: 'x',
        roles: ['ROOT'],
      })
      .returning();

    // Fund flow rows as the ledger writes them (amounts signed, a running balance, some notes in Chinese
    // and some that look like formulas), loaded in one statement; the journal entries they point at are not
    // needed here (foreign keys are skipped for the load).
    const load = async (from: number, to: number) => {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
          insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                                  entry_id, note, created_at)
          select ${merchant!.id},
                 (array['collection_settlement','recharge','transfer_in','transfer_out','payout_refund'])[1 + g % 5],
                 case when g % 5 = 3 then -(1 + g % 500) else 1000 + g % 9000 end,
                 1000000000 + g, 'bench', g::text, 'R' || g, g,
                 case g % 10 when 0 then '代收结算 thanh toán ' || g when 1 then '=cmd|' || g else null end,
                 timestamptz '2025-06-01 00:00:00+00' + g * interval '2 seconds'
          from generate_series(${from}::int, ${to}::int) g`);
      });
      await db.execute(sql`vacuum analyze fund_flows`);
    };

    const measure = async (count: number, withBaseline: boolean) => {
      console.log(`\n${count.toLocaleString('en')} fund flow rows for one merchant`);
      let copy: { ms: number; bytes: number } | undefined;
      if (withBaseline) {
        await copyBaseline(bench.url, merchant!.id); // warm the cache
        copy = await copyBaseline(bench.url, merchant!.id);
        console.log(
          `  COPY ... TO STDOUT (baseline)  ${fixed(copy.ms / 1000, 2)} s  ${fixed(copy.bytes / 1e6, 1)} MB`,
        );
      }
      for (const [format, target] of [
        ['csv', 0.3],
        ['xlsx', 0.1],
      ] as const) {
        const result = await exportByWorker(bench, exports, merchant!.id, user!.id, format);
        if (result.status !== 'success' || result.rows !== count) {
          throw new Error(`${format} export: ${result.status} ${result.error ?? ''} (${result.rows} rows)`);
        }
        const ratio = copy ? copy.ms / result.ms : undefined;
        console.log(
          `  ${format.toUpperCase().padEnd(4)} export                   ${fixed(result.ms / 1000, 2)} s  ${fixed(result.size / 1e6, 1)} MB` +
            (ratio !== undefined ? `  speed vs COPY ${fixed(ratio)} (target >= ${target})` : '') +
            `  worker peak RSS ${fixed(result.peakRssMb, 0)} MB (target < 200; ${fixed(result.startRssMb, 0)} MB idle)`,
        );
      }
    };

    // Tasks are created here (their job sent in the same transaction); a worker process takes each.
    const jobs = createJobRunner(bench.database.jobConnection);
    await jobs.start();
    const now = () => new Date();
    const exports = createExportsService({
      db,
      jobs,
      storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'paydesk-bench-files-'))),
      now,
      kinds: exportKindHandlers({ dailyReports: createDailyReportsService({ db, now }) }),
    });
    stopJobs = () => jobs.stop();

    let started = performance.now();
    await load(1, rows);
    console.log(
      `exports: database ${bench.name}; loaded ${rows.toLocaleString('en')} rows in ${fixed((performance.now() - started) / 1000, 1)} s`,
    );
    await measure(rows, true);

    started = performance.now();
    await load(rows + 1, rows * 3);
    console.log(
      `\nloaded up to ${(rows * 3).toLocaleString('en')} rows in ${fixed((performance.now() - started) / 1000, 1)} s`,
    );
    await measure(rows * 3, true);
  } finally {
    await stopJobs();
    await bench.drop();
  }
}
